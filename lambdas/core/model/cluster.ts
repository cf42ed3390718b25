/**
 * The cluster model, in CLM's terms (reference/clm-behaviour.md §2.1), camelCased for code.
 * The wire formats (clusters.yaml, the HTTP registry) are snake_case; registry adapters convert.
 */

export const PROVIDERS = ['zalando-aws', 'zalando-eks'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const LIFECYCLE_STATUSES = [
  'requested',
  'creating',
  'ready',
  'decommission-requested',
  'decommissioned',
] as const;
export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];

export type ConfigItems = Record<string, string>;

export interface NodePool {
  readonly name: string;
  readonly profile: string;
  readonly instanceTypes: readonly string[];
  readonly discountStrategy: string;
  readonly minSize: number;
  readonly maxSize: number;
  readonly configItems: ConfigItems;
}

/** RFC 7807-like problem, as CLM stores it in the cluster status. */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status?: number;
  readonly detail?: string;
  readonly instance?: string;
}

export interface ClusterStatus {
  readonly currentVersion: string;
  readonly lastVersion: string;
  readonly nextVersion: string;
  readonly problems: readonly Problem[];
}

export interface Cluster {
  readonly id: string;
  readonly alias: string;
  readonly localId: string;
  readonly apiServerUrl: string;
  readonly channel: string;
  readonly configItems: ConfigItems;
  readonly criticalityLevel: number;
  readonly environment: string;
  readonly infrastructureAccount: string;
  readonly lifecycleStatus: LifecycleStatus;
  readonly nodePools: readonly NodePool[];
  readonly provider: Provider;
  readonly region: string;
  readonly status: ClusterStatus;
  readonly owner?: string;
  readonly accountName?: string;
  readonly createdAt?: string;
  /**
   * CLM's `AccountClusters`: every cluster of the registry in the same infrastructure account (this one included),
   * in registry order, as read when the run started; the trust template (`IAMRoleTrustRelationshipTemplate`) lists
   * the ready ones. Absent where no registry listing was at hand (then the cluster alone counts).
   */
  readonly accountClusters?: readonly AccountPeer[];
}

/** What the trust template needs of a cluster of the same account (core/eks/oidc-trust.ts). */
export type AccountPeer = Pick<
  Cluster,
  'id' | 'localId' | 'infrastructureAccount' | 'provider' | 'apiServerUrl' | 'lifecycleStatus'
> & {
  /** Its `eks_oidc_issuer_url` config item ("" when unset). */
  readonly oidcIssuerUrl: string;
};

export const EMPTY_STATUS: ClusterStatus = { currentVersion: '', lastVersion: '', nextVersion: '', problems: [] };

/** Profile contains "master" (CLM `IsMaster`). */
export function isMasterPool(pool: Pick<NodePool, 'profile'>): boolean {
  return pool.profile.includes('master');
}

/** Profile equals "worker-karpenter" (CLM `IsKarpenter`). */
export function isKarpenterPool(pool: Pick<NodePool, 'profile'>): boolean {
  return pool.profile === 'worker-karpenter';
}

/** Discount strategy spot or spot_max_price (CLM `IsSpot`). */
export function isSpotPool(pool: Pick<NodePool, 'discountStrategy'>): boolean {
  return pool.discountStrategy === 'spot' || pool.discountStrategy === 'spot_max_price';
}

/** The 12-digit AWS account id of `aws:<id>`. */
export function awsAccountId(infrastructureAccount: string): string {
  const [, id = ''] = infrastructureAccount.split(':');
  return id;
}
