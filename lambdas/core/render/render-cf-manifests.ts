import type { ConfigSnapshot } from '../../ports/config-source';
import type { TemplateEngine } from '../../ports/template-engine';
import type { Cluster } from '../model/cluster';
import { cfManifestStackTags } from '../cloudformation/stack-names';
import { cfManifestTemplates } from './config-layout';
import type { Values } from './pool-values';
import { collecting } from './render-issue';
import type { RenderIssue } from './render-issue';
import { cfManifestStack, renderCfnTemplate } from './render-stack';
import type { RenderedStack } from './render-stack';
import { renderContext } from './render-context';

export interface RenderedCfManifests {
  /** In apply order (sources in order, files lexical); empty renders are skipped. */
  readonly stacks: readonly RenderedStack[];
  readonly errors: readonly RenderIssue[];
}

/**
 * Extra stacks from `cluster/cf-manifests/*.y?ml` of every source (CLM §6.2 step 14): each names its
 * stack in `Metadata.StackName`, is owned by the cluster and keeps its `Metadata.Tags`.
 */
export async function renderCfManifests(
  cluster: Cluster,
  snapshots: readonly ConfigSnapshot[],
  values: Values,
  engine: TemplateEngine,
): Promise<RenderedCfManifests> {
  const context = renderContext(cluster, values);
  const stacks: RenderedStack[] = [];
  const errors: RenderIssue[] = [];
  const seen = new Map<string, string>();
  for (const template of cfManifestTemplates(snapshots)) {
    const stack = await collecting(errors, template.path, async () => {
      const rendered = await renderCfnTemplate(engine, { template, context });
      return cfManifestStack(rendered, template.path, cfManifestStackTags(cluster));
    });
    if (!stack) continue;
    const first = seen.get(stack.name);
    if (first) {
      errors.push({
        error: 'ConfigError',
        file: template.path,
        message: `${template.path}: Metadata.StackName "${stack.name}" is already used by ${first}`,
      });
      continue;
    }
    seen.set(stack.name, template.path);
    stacks.push(stack);
  }
  return { stacks, errors };
}
