/**
 * CLM writes what it discovered about the network into the cluster's config items when they do not set it
 * (reference/clm-behaviour.md §4.2, clusterpy.go `provision`): `vpc_id` (the VPC it chose) and `subnets` (the
 * comma list of the node subnets). Templates read them as `Cluster.ConfigItems.vpc_id` and `.subnets`. Only the
 * cluster's items change: node pools already inherited their copy before the discovery, as in CLM.
 */
import type { Cluster } from '../model/cluster';
import { isRecord } from '../config/plain-data';
import type { Values } from './pool-values';

export function withDiscoveredNetwork(cluster: Cluster, values: Values): Cluster {
  const added: Record<string, string> = {};
  if (!('vpc_id' in cluster.configItems) && typeof values.vpc_id === 'string' && values.vpc_id)
    added.vpc_id = values.vpc_id;
  const all = isRecord(values.subnets) ? values.subnets['*'] : undefined;
  if (!('subnets' in cluster.configItems) && typeof all === 'string') added.subnets = all;
  if (!Object.keys(added).length) return cluster;
  const items = Object.entries({ ...cluster.configItems, ...added }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { ...cluster, configItems: Object.fromEntries(items) };
}
