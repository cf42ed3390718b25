import type { ConfigSnapshot } from '../../ports/config-source';
import type { SecretDecrypter } from '../../ports/secrets';
import type { TemplateEngine } from '../../ports/template-engine';
import type { Cluster, ConfigItems } from '../model/cluster';
import { effectiveConfigItems, withEffectiveConfigItems } from '../config/effective-config-items';
import type { CfDeletions, Deletions } from '../deletions/deletion';
import { NO_CF_DELETIONS, NO_DELETIONS } from '../deletions/deletion';
import type { Values } from './pool-values';
import { withDiscoveredNetwork } from './discovered-network';
import { renderClusterResources } from './render-cluster-resources';
import { collecting } from './render-issue';
import type { RenderIssue } from './render-issue';
import { renderMainStack } from './render-main-stack';
import type { RenderedManifestFile } from './render-manifests';
import type { RenderedNodePool } from './render-node-pool';
import type { RenderedKarpenterPool } from './render-karpenter-pool';
import type { RenderedStack } from './render-stack';
import { managesEtcdStack } from './etcd-settings';
import type { FilesBundle } from './files-bundle';
import { renderEtcdStack } from './render-etcd-stack';

export interface RenderClusterInput {
  readonly cluster: Cluster;
  readonly snapshots: readonly ConfigSnapshot[];
  /**
   * Deploy-time values; `ClusterStackOutputs` stands for the main stack's outputs (`{}` when unknown). A function is
   * asked with the cluster's effective config items (defaults merged), as the provisioning asks its values provider:
   * what a default says (`etcd_instance_type`, `availability_zones`…) counts.
   */
  readonly values: Values | ((effective: Cluster) => Promise<Values>);
  readonly engine: TemplateEngine;
  readonly decrypter: SecretDecrypter;
  /** The cluster's target version `<config version>#<cluster hash>`, computed by the caller. */
  readonly version?: string;
}

export interface ClusterRender {
  readonly id: string;
  readonly version: string;
  /** Effective cluster config items (defaults merged, secrets decrypted). */
  readonly configItems: ConfigItems;
  readonly nodePools: readonly { readonly name: string; readonly configItems: ConfigItems }[];
  /** Apply order: the etcd stack (when CLM manages it), main stack, cf-manifests, node pools (registry order). */
  readonly stacks: readonly RenderedStack[];
  readonly manifests: readonly RenderedManifestFile[];
  readonly deletions: Deletions;
  readonly cfDeletions: CfDeletions;
  /** Files bundles and user data of each rendered pool (ASG-backed and Karpenter). */
  readonly poolDetails: readonly (RenderedNodePool | RenderedKarpenterPool)[];
  /** Karpenter pools: the objects of their provisioners.yaml (no stack). */
  readonly karpenterPools?: readonly RenderedKarpenterPool[];
  /** The etcd stack's files bundle (`manage_etcd_stack: "true"`; its stack is the first of `stacks`). */
  readonly etcd?: { readonly files: FilesBundle };
  /** The deploy-time values the render was given (what AWS said, or the offline values). */
  readonly values?: Values;
  readonly errors: readonly RenderIssue[];
  /** Non-fatal findings (`file:line: …`), e.g. a key repeated in a manifest, whose last value is kept. */
  readonly warnings?: readonly string[];
}

/**
 * Everything for one cluster, without touching a cloud (`clm render`): effective config items (plus the
 * discovered `vpc_id` and `subnets`, as CLM adds them), the main stack (and the early deletions check), then
 * pools, cf-manifests, manifests and deletions with the given stack outputs. One broken file does not hide the others: all problems are in `errors`.
 */
export async function renderCluster(input: RenderClusterInput): Promise<ClusterRender> {
  const { cluster, snapshots, engine } = input;
  const errors: RenderIssue[] = [];
  const base = { id: cluster.id, version: input.version ?? '' };
  const effective = await collecting(errors, undefined, () =>
    effectiveConfigItems({ cluster, snapshots, engine, decrypter: input.decrypter }),
  );
  if (!effective) {
    return {
      ...base,
      configItems: cluster.configItems,
      nodePools: cluster.nodePools.map((p) => ({ name: p.name, configItems: p.configItems })),
      stacks: [],
      manifests: [],
      deletions: NO_DELETIONS,
      cfDeletions: NO_CF_DELETIONS,
      poolDetails: [],
      errors,
    };
  }
  const configured = withEffectiveConfigItems(cluster, effective);
  const values = typeof input.values === 'function' ? await input.values(configured) : input.values;
  const prepared = withDiscoveredNetwork(configured, values);
  // The main stack is rendered before it exists: no outputs yet, as in CLM.
  const { ClusterStackOutputs: outputs = {}, ...valuesBeforeStack } = values;
  // The etcd stack comes first; the values it adds are the main stack's and everything's after (CLM's shared map).
  const etcd = managesEtcdStack(prepared)
    ? await collecting(errors, undefined, () =>
        renderEtcdStack({ cluster: prepared, snapshots, values: valuesBeforeStack, engine }),
      )
    : undefined;
  const mainValues = etcd?.values ?? valuesBeforeStack;
  const main = await renderMainStack({ cluster: prepared, snapshots, values: mainValues, engine });
  const resources = await renderClusterResources({
    cluster: prepared,
    snapshots,
    values: { ...mainValues, ClusterStackOutputs: outputs },
    engine,
  });
  return {
    ...base,
    configItems: prepared.configItems,
    nodePools: effective.nodePools,
    stacks: [
      ...(etcd ? [etcd.stack] : []),
      ...(main.stack ? [main.stack] : []),
      ...resources.cfManifests,
      ...resources.nodePools.map((p) => p.stack),
    ],
    manifests: resources.manifests,
    deletions: resources.deletions,
    cfDeletions: resources.cfDeletions,
    poolDetails: [...resources.nodePools, ...resources.karpenterPools],
    karpenterPools: resources.karpenterPools,
    ...(etcd ? { etcd: { files: etcd.files } } : {}),
    values,
    errors: uniqueIssues([...errors, ...main.errors, ...resources.errors]),
    warnings: resources.warnings,
  };
}

/** Deletions are rendered in both stages; report each problem once. */
export function uniqueIssues(issues: readonly RenderIssue[]): RenderIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => !seen.has(issue.message) && Boolean(seen.add(issue.message)));
}
