import type { Cluster } from '../core/model/cluster';

const keys = new WeakMap<Cluster, string>();

/**
 * What a cluster's ports are built from: its API server URL, account, region and config items (the CA, the auth mode,
 * the token secret, ...). A warm Lambda container keeps a cluster's ports across invocations; when the registry
 * changes any of these, the ports must be built again, or the container goes on talking to the old API server with
 * the old CA. Computed once per cluster object.
 */
export function clusterConnectionKey(cluster: Cluster): string {
  let key = keys.get(cluster);
  if (key === undefined) {
    const items = Object.keys(cluster.configItems)
      .sort()
      .map((name) => [name, cluster.configItems[name]]);
    key = JSON.stringify([cluster.apiServerUrl, cluster.infrastructureAccount, cluster.region, items]);
    keys.set(cluster, key);
  }
  return key;
}

/**
 * Values built per cluster and kept per cluster id, the latest only: the same id with another connection key
 * (clusterConnectionKey) builds a new value and forgets the old one, so a long-lived container holds one per cluster.
 */
export function perClusterConnection<T>(build: (cluster: Cluster) => T): (cluster: Cluster) => T {
  const latest = new Map<string, { key: string; value: T }>();
  return (cluster) => {
    const key = clusterConnectionKey(cluster);
    const found = latest.get(cluster.id);
    if (found?.key === key) return found.value;
    const value = build(cluster);
    latest.set(cluster.id, { key, value });
    return value;
  };
}
