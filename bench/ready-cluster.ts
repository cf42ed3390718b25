import type { Cluster } from '../lambdas/core/model/cluster';

/**
 * Cluster `i` of a bench fleet: ready, at its version (`aaa…#h<i>`), one of 200 accounts in eu-central-1, with the
 * given config items and node pools.
 */
export function readyCluster(i: number, configItems: Cluster['configItems'], nodePools: unknown[] = []): Cluster {
  const account = String(100000000000 + (i % 200));
  return {
    id: `aws:${account}:eu-central-1:kube-${i}`,
    alias: `kube-${i}`,
    localId: `kube-${i}`,
    apiServerUrl: `https://kube-${i}.example.org`,
    channel: 'main',
    environment: 'production',
    criticalityLevel: 1,
    infrastructureAccount: `aws:${account}`,
    lifecycleStatus: 'ready',
    provider: 'zalando-aws',
    region: 'eu-central-1',
    configItems,
    nodePools,
    status: { currentVersion: `${'a'.repeat(40)}#h${i}`, lastVersion: '', nextVersion: '', problems: [] },
  } as unknown as Cluster;
}
