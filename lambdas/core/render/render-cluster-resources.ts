import type { ConfigSnapshot } from '../../ports/config-source';
import type { TemplateEngine } from '../../ports/template-engine';
import { isKarpenterPool, isMasterPool } from '../model/cluster';
import type { Cluster } from '../model/cluster';
import type { CfDeletions, Deletions } from '../deletions/deletion';
import type { Values } from './pool-values';
import { renderCfManifests } from './render-cf-manifests';
import { renderDeletions } from './render-deletions';
import { collecting } from './render-issue';
import type { RenderIssue } from './render-issue';
import { renderManifests } from './render-manifests';
import type { RenderedManifestFile } from './render-manifests';
import { renderNodePool } from './render-node-pool';
import type { RenderedNodePool } from './render-node-pool';
import { renderKarpenterPool } from './render-karpenter-pool';
import type { RenderedKarpenterPool } from './render-karpenter-pool';
import type { RenderedStack } from './render-stack';

export interface ClusterResourcesInput {
  /** With its effective config items. */
  readonly cluster: Cluster;
  readonly snapshots: readonly ConfigSnapshot[];
  /** Deploy-time values with `ClusterStackOutputs` (the main stack's outputs). */
  readonly values: Values;
  readonly engine: TemplateEngine;
}

export interface ClusterResources {
  /** Registry order; master pools of zalando-eks clusters are left out (EKS runs the control plane). */
  readonly nodePools: readonly RenderedNodePool[];
  /** Karpenter pools (`worker-karpenter`), registry order: no stack, their provisioners objects. */
  readonly karpenterPools: readonly RenderedKarpenterPool[];
  readonly cfManifests: readonly RenderedStack[];
  readonly manifests: readonly RenderedManifestFile[];
  readonly deletions: Deletions;
  readonly cfDeletions: CfDeletions;
  readonly errors: readonly RenderIssue[];
  /** Non-fatal findings, e.g. repeated keys in manifests (`file:line: …`). */
  readonly warnings: readonly string[];
}

/**
 * The RenderClusterResources stage, once the main stack's outputs are known: node pools, cf-manifests,
 * manifests and deletions (rendered again, now with the outputs). Renders everything it can and
 * reports every problem.
 */
export async function renderClusterResources(input: ClusterResourcesInput): Promise<ClusterResources> {
  const { cluster, snapshots, values, engine } = input;
  const errors: RenderIssue[] = [];
  const nodePools: RenderedNodePool[] = [];
  const karpenterPools: RenderedKarpenterPool[] = [];
  const poolWarnings: string[] = [];
  for (const pool of cluster.nodePools) {
    if (cluster.provider === 'zalando-eks' && isMasterPool(pool)) continue;
    if (isKarpenterPool(pool)) {
      const rendered = await collecting(errors, undefined, () =>
        renderKarpenterPool({ cluster, pool, snapshots, values, engine }, poolWarnings),
      );
      if (rendered) karpenterPools.push(rendered);
      continue;
    }
    const rendered = await collecting(errors, undefined, () =>
      renderNodePool({ cluster, pool, snapshots, values, engine }),
    );
    if (rendered) nodePools.push(rendered);
  }
  const cfManifests = await renderCfManifests(cluster, snapshots, values, engine);
  const manifests = await renderManifests(cluster, snapshots, values, engine);
  const deletions = await renderDeletions(cluster, snapshots, values, engine);
  return {
    nodePools,
    karpenterPools,
    cfManifests: cfManifests.stacks,
    manifests: manifests.files,
    deletions: deletions.deletions,
    cfDeletions: deletions.cfDeletions,
    errors: [...errors, ...cfManifests.errors, ...manifests.errors, ...deletions.errors],
    warnings: [...poolWarnings, ...manifests.warnings],
  };
}
