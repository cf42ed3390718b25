/** A cluster and node pool of the domain model for tests; each test overrides what it is about. */
import { EMPTY_STATUS } from '../../lambdas/core/model/cluster';
import type { Cluster, NodePool } from '../../lambdas/core/model/cluster';

export function testPool(overrides: Partial<NodePool> = {}): NodePool {
  return {
    name: 'workers',
    profile: 'worker-default',
    instanceTypes: ['m6i.large'],
    discountStrategy: 'none',
    minSize: 0,
    maxSize: 20,
    configItems: {},
    ...overrides,
  };
}

export function testCluster(overrides: Partial<Cluster> = {}): Cluster {
  return {
    id: 'aws:123456789012:eu-central-1:kube-1',
    alias: 'kube-1',
    localId: 'kube-1',
    apiServerUrl: 'https://kube-1.example.org',
    channel: 'main',
    configItems: {},
    criticalityLevel: 1,
    environment: 'test',
    infrastructureAccount: 'aws:123456789012',
    lifecycleStatus: 'ready',
    nodePools: [testPool()],
    provider: 'zalando-aws',
    region: 'eu-central-1',
    status: EMPTY_STATUS,
    ...overrides,
  };
}
