import type { ConfigSnapshot } from '../../ports/config-source';
import type { TemplateEngine } from '../../ports/template-engine';
import type { Cluster } from '../model/cluster';
import { mainStackName, mainStackTags } from '../cloudformation/stack-names';
import type { CfDeletions, Deletions } from '../deletions/deletion';
import { clusterStackTemplate } from './config-layout';
import type { Values } from './pool-values';
import { renderDeletions } from './render-deletions';
import { collecting } from './render-issue';
import type { RenderIssue } from './render-issue';
import { namedStack, renderCfnTemplate } from './render-stack';
import type { RenderedStack } from './render-stack';
import { renderContext } from './render-context';

export interface MainStackInput {
  /** With its effective config items (core/config/effective-config-items). */
  readonly cluster: Cluster;
  readonly snapshots: readonly ConfigSnapshot[];
  /** Deploy-time values, without ClusterStackOutputs (the stack does not exist yet). */
  readonly values: Values;
  readonly engine: TemplateEngine;
}

export interface MainStackRender {
  /** Undefined when the template is missing or broken (see errors). */
  readonly stack?: RenderedStack;
  /** Validated early, before any stack is touched (CLM §6.2 step 8); rendered again with outputs later. */
  readonly deletions: Deletions;
  readonly cfDeletions: CfDeletions;
  readonly errors: readonly RenderIssue[];
}

/**
 * The RenderConfig stage: the main cluster stack (`cluster/cluster.yaml` of the first source, named
 * `local_id`, owned by the cluster id and tagged as main stack) and an early validation of every
 * deletions file, so a typo fails before anything is deployed.
 */
export async function renderMainStack(input: MainStackInput): Promise<MainStackRender> {
  const errors: RenderIssue[] = [];
  const stack = await collecting(errors, undefined, async () => {
    const template = clusterStackTemplate(input.snapshots);
    const rendered = await renderCfnTemplate(input.engine, {
      template,
      context: renderContext(input.cluster, input.values),
    });
    return namedStack(rendered, template.path, {
      name: mainStackName(input.cluster),
      kind: 'cluster',
      tags: mainStackTags(input.cluster),
    });
  });
  const deletions = await renderDeletions(input.cluster, input.snapshots, input.values, input.engine);
  return {
    ...(stack ? { stack } : {}),
    deletions: deletions.deletions,
    cfDeletions: deletions.cfDeletions,
    errors: [...errors, ...deletions.errors],
  };
}
