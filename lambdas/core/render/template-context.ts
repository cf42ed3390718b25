/**
 * The data templates see, with CLM's names (DESIGN.md §5, reference/clm-behaviour.md §4.2): `Cluster.*`,
 * `Values.*` and, in node-pool templates, `NodePool.*`. CLM's Go methods that configs call become plain
 * fields here: `NodePool.IsMaster`, `IsSpot`, `IsKarpenter`, `Taints`, `KarpenterRequirements`,
 * `KarpenterInstanceTypeStrategy`; `Cluster.Name`, `InfrastructureAccountID`, `WorkerRoleARN`, `KarpenterPools`,
 * `ASGBackedPools`.
 */
import { isKarpenterPool, isMasterPool, isSpotPool } from '../model/cluster';
import type { Cluster, NodePool } from '../model/cluster';
import { karpenterInstanceTypeStrategy, karpenterRequirements } from '../karpenter/karpenter-pool';
import type { KarpenterInstanceTypeStrategy, KarpenterRequirement } from '../karpenter/karpenter-pool';
import { parseTaints } from '../template-helpers/kube';
import { accountPeer, oidcProvider, trustRelationshipTemplate } from '../eks/oidc-trust';
import type { Taint } from '../template-helpers/kube';

export interface TemplateNodePool {
  readonly Name: string;
  readonly Profile: string;
  readonly InstanceTypes: readonly string[];
  /** CLM's deprecated single type: the first of InstanceTypes. */
  readonly InstanceType: string;
  readonly DiscountStrategy: string;
  readonly MinSize: number;
  readonly MaxSize: number;
  readonly ConfigItems: Readonly<Record<string, string>>;
  readonly IsMaster: boolean;
  readonly IsSpot: boolean;
  readonly IsKarpenter: boolean;
  /** Parsed `taints` item (`key[=value]:Effect`, invalid entries skipped); null when the item is absent. */
  readonly Taints: readonly Taint[] | null;
  /**
   * The `requirements` item parsed as NodeSelectorRequirements (`Key`, `Operator`, `Values`). Read lazily, as CLM's
   * method is called: a bad item fails (ConfigError naming cluster, pool and field) only the templates that use it.
   */
  readonly KarpenterRequirements: readonly KarpenterRequirement[];
  /** `not-specified` / `default-for-karpenter` when the instance list is exactly that value, else `custom`. */
  readonly KarpenterInstanceTypeStrategy: KarpenterInstanceTypeStrategy;
}

export interface TemplateCluster {
  readonly ID: string;
  readonly Alias: string;
  readonly LocalID: string;
  readonly APIServerURL: string;
  readonly Channel: string;
  readonly Environment: string;
  readonly CriticalityLevel: number;
  readonly InfrastructureAccount: string;
  readonly Region: string;
  readonly Provider: string;
  readonly LifecycleStatus: string;
  readonly ConfigItems: Readonly<Record<string, string>>;
  readonly NodePools: readonly TemplateNodePool[];
  readonly Owner: string;
  readonly AccountName: string;
  readonly Status: { readonly CurrentVersion: string; readonly LastVersion: string; readonly NextVersion: string };
  /** The alias for zalando-eks, else the ID (CLM `Cluster.Name`). */
  readonly Name: string;
  readonly InfrastructureAccountID: string;
  readonly WorkerRoleARN: string;
  readonly KarpenterPools: readonly TemplateNodePool[];
  readonly ASGBackedPools: readonly TemplateNodePool[];
  /**
   * CLM's `OIDCProvider`: the EKS issuer without `https://` (zalando-eks), else `<LocalID>.<hosted zone>`. Read lazily:
   * an API server URL without a hosted zone fails only the templates that use it.
   */
  readonly OIDCProvider: string;
  /** CLM's trust policy JSON for roles of the account's ready clusters (core/eks/oidc-trust.ts); lazy as OIDCProvider. */
  readonly IAMRoleTrustRelationshipTemplate: string;
}

export interface TemplateContext {
  readonly Cluster: TemplateCluster;
  readonly Values: Readonly<Record<string, unknown>>;
  /** Only in node-pool templates; null elsewhere (so `{{#if NodePool}}` works, `{{NodePool.Name}}` fails). */
  readonly NodePool: TemplateNodePool | null;
}

export function templateNodePool(pool: NodePool, clusterId?: string): TemplateNodePool {
  const fields = {
    Name: pool.name,
    Profile: pool.profile,
    InstanceTypes: pool.instanceTypes,
    InstanceType: pool.instanceTypes[0] ?? '',
    DiscountStrategy: pool.discountStrategy,
    MinSize: pool.minSize,
    MaxSize: pool.maxSize,
    ConfigItems: pool.configItems,
    IsMaster: isMasterPool(pool),
    IsSpot: isSpotPool(pool),
    IsKarpenter: isKarpenterPool(pool),
    Taints: parseTaints(pool.configItems.taints) ?? null,
    KarpenterInstanceTypeStrategy: karpenterInstanceTypeStrategy(pool),
  };
  return Object.defineProperty(fields, 'KarpenterRequirements', {
    enumerable: true,
    get: () => karpenterRequirements(pool, clusterId),
  }) as TemplateNodePool;
}

export function templateCluster(cluster: Cluster): TemplateCluster {
  const fields = clusterFields(cluster);
  return Object.defineProperties(fields, {
    OIDCProvider: { enumerable: true, get: () => oidcProvider(accountPeer(cluster)) },
    IAMRoleTrustRelationshipTemplate: { enumerable: true, get: () => trustRelationshipTemplate(cluster) },
  }) as TemplateCluster;
}

function clusterFields(cluster: Cluster): Omit<TemplateCluster, 'OIDCProvider' | 'IAMRoleTrustRelationshipTemplate'> {
  const pools = cluster.nodePools.map((pool) => templateNodePool(pool, cluster.id));
  // CLM trims the `aws:` prefix only (no validation).
  const accountId = cluster.infrastructureAccount.startsWith('aws:')
    ? cluster.infrastructureAccount.slice(4)
    : cluster.infrastructureAccount;
  return {
    ID: cluster.id,
    Alias: cluster.alias,
    LocalID: cluster.localId,
    APIServerURL: cluster.apiServerUrl,
    Channel: cluster.channel,
    Environment: cluster.environment,
    CriticalityLevel: cluster.criticalityLevel,
    InfrastructureAccount: cluster.infrastructureAccount,
    Region: cluster.region,
    Provider: cluster.provider,
    LifecycleStatus: cluster.lifecycleStatus,
    ConfigItems: cluster.configItems,
    NodePools: pools,
    Owner: cluster.owner ?? '',
    AccountName: cluster.accountName ?? '',
    Status: {
      CurrentVersion: cluster.status.currentVersion,
      LastVersion: cluster.status.lastVersion,
      NextVersion: cluster.status.nextVersion,
    },
    Name: cluster.provider === 'zalando-eks' ? cluster.alias : cluster.id,
    InfrastructureAccountID: accountId,
    WorkerRoleARN: `arn:aws:iam::${accountId}:role/${cluster.localId}-worker`,
    KarpenterPools: pools.filter((p) => p.IsKarpenter),
    ASGBackedPools: pools.filter((p) => !p.IsKarpenter),
  };
}

/** The template data for a cluster, optionally with computed values and the node pool being rendered. */
export function templateContext(cluster: Cluster, values?: Record<string, unknown>, pool?: NodePool): TemplateContext {
  return {
    Cluster: templateCluster(cluster),
    Values: values ?? {},
    NodePool: pool ? templateNodePool(pool, cluster.id) : null,
  };
}
