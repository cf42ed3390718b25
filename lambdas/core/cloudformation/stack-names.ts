import type { Cluster, NodePool } from '../model/cluster';

/**
 * Stack names and tags, as CLM sets them (reference/clm-behaviour.md §6.2 step 11, §6.4, §6.5).
 * The deploy and decommission steps find stacks by these tags, so they are part of the contract.
 */

export const TAG_MAIN_STACK = 'cluster-lifecycle-controller.zalando.org/main-stack';
export const TAG_NODE_POOL_ROLE = 'kubernetes.io/role/node-pool';
export const TAG_NODE_POOL = 'kubernetes.io/node-pool';
export const TAG_NODE_POOL_LEGACY = 'NodePool';
export const TAG_NODE_POOL_PROFILE = 'kubernetes.io/node-pool/profile';

/** `kubernetes.io/cluster/<name>`: the ownership tag key. */
export function clusterTagKey(name: string): string {
  return `kubernetes.io/cluster/${name}`;
}

/** CLM's `Name()`: the id for zalando-aws, the alias (the EKS cluster name) for zalando-eks. */
export function clusterName(cluster: Pick<Cluster, 'id' | 'alias' | 'provider'>): string {
  return cluster.provider === 'zalando-eks' ? cluster.alias : cluster.id;
}

/** The main stack is named after `local_id`. */
export function mainStackName(cluster: Pick<Cluster, 'localId'>): string {
  return cluster.localId;
}

/** `nodepool-<pool>-<cluster id with ':' replaced by '-'>`. */
export function nodePoolStackName(cluster: Pick<Cluster, 'id'>, poolName: string): string {
  return `nodepool-${poolName}-${cluster.id.replaceAll(':', '-')}`;
}

/** Main stack: owned by the cluster *id* (even for EKS) and marked as the main stack. */
export function mainStackTags(cluster: Pick<Cluster, 'id'>): Record<string, string> {
  return { [clusterTagKey(cluster.id)]: 'owned', [TAG_MAIN_STACK]: 'true' };
}

export function nodePoolStackTags(
  cluster: Pick<Cluster, 'id' | 'alias' | 'provider'>,
  pool: Pick<NodePool, 'name' | 'profile'>,
): Record<string, string> {
  return {
    [clusterTagKey(clusterName(cluster))]: 'owned',
    [TAG_NODE_POOL_ROLE]: 'true',
    [TAG_NODE_POOL]: pool.name,
    [TAG_NODE_POOL_LEGACY]: pool.name,
    [TAG_NODE_POOL_PROFILE]: pool.profile,
  };
}

export function cfManifestStackTags(cluster: Pick<Cluster, 'id' | 'alias' | 'provider'>): Record<string, string> {
  return { [clusterTagKey(clusterName(cluster))]: 'owned' };
}

/** The template's own tags first, CLM's tags win on conflicts. */
export function mergeTags(
  templateTags: Readonly<Record<string, string>>,
  clmTags: Readonly<Record<string, string>>,
): Record<string, string> {
  return { ...templateTags, ...clmTags };
}
