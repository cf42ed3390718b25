import type { ConfigSnapshot } from '../../ports/config-source';
import type { TemplateEngine } from '../../ports/template-engine';
import type { Cluster } from '../model/cluster';
import type { CfDeletions, Deletions } from '../deletions/deletion';
import { concatCfDeletions, concatDeletions } from '../deletions/deletion';
import { parseCfDeletions } from '../deletions/parse-cf-deletions';
import { parseDeletions } from '../deletions/parse-deletions';
import { CF_DELETIONS, DELETIONS, templatesInEverySource } from './config-layout';
import type { Values } from './pool-values';
import { collecting } from './render-issue';
import type { RenderIssue } from './render-issue';
import { renderContext } from './render-context';

export interface RenderedDeletions {
  readonly deletions: Deletions;
  readonly cfDeletions: CfDeletions;
  readonly errors: readonly RenderIssue[];
}

/**
 * `cluster/manifests/deletions.yaml` and `cluster/cf-manifests/cf-deletions.yaml` of every source: both
 * are templates (rendered with Cluster and Values), validated with CLM's semantics, lists concatenated
 * in source order. Every broken file is reported.
 */
export async function renderDeletions(
  cluster: Cluster,
  snapshots: readonly ConfigSnapshot[],
  values: Values,
  engine: TemplateEngine,
): Promise<RenderedDeletions> {
  const errors: RenderIssue[] = [];
  const context = renderContext(cluster, values);
  const deletions: Deletions[] = [];
  for (const template of templatesInEverySource(snapshots, DELETIONS)) {
    const parsed = await collecting(errors, template.path, async () =>
      parseDeletions(await engine.render({ template, context }), template.path),
    );
    if (parsed) deletions.push(parsed);
  }
  const cfDeletions: CfDeletions[] = [];
  for (const template of templatesInEverySource(snapshots, CF_DELETIONS)) {
    const parsed = await collecting(errors, template.path, async () =>
      parseCfDeletions(await engine.render({ template, context }), template.path),
    );
    if (parsed) cfDeletions.push(parsed);
  }
  return { deletions: concatDeletions(deletions), cfDeletions: concatCfDeletions(cfDeletions), errors };
}
