import { fromWireCluster, toWireCluster } from '../../../lambdas/core/model/cluster-wire';
import { wireClusterSchema } from '../../../lambdas/core/model/wire-cluster-schema';
import { validateWireCluster } from '../../../lambdas/core/model/validate-wire-cluster';
import type { Cluster } from '../../../lambdas/core/model/cluster';

const cluster: Cluster = {
  id: 'aws:123456789012:eu-central-1:kube-1',
  alias: 'kube-1',
  localId: 'kube-1',
  apiServerUrl: 'https://kube-1.example.org',
  channel: 'main',
  configItems: { a_key: 'v' },
  criticalityLevel: 2,
  environment: 'production',
  infrastructureAccount: 'aws:123456789012',
  lifecycleStatus: 'ready',
  provider: 'zalando-eks',
  region: 'eu-central-1',
  nodePools: [
    {
      name: 'p1',
      profile: 'worker-default',
      instanceTypes: ['m5.large', 'm5.xlarge'],
      discountStrategy: 'spot',
      minSize: 0,
      maxSize: 9,
      configItems: { taints: 'x=y:NoSchedule' },
    },
  ],
  status: {
    currentVersion: 'a#b',
    lastVersion: 'c#d',
    nextVersion: '',
    problems: [{ type: 't', title: 'x', status: 1, detail: 'd', instance: 'i' }],
  },
  owner: 'team/a',
  accountName: 'acc',
  createdAt: '2024-01-01T00:00:00Z',
};

describe('cluster wire format', () => {
  it('round-trips model → document → model', () => {
    const result = validateWireCluster(JSON.parse(JSON.stringify(toWireCluster(cluster))), 'strict');
    expect(result.issues).toEqual([]);
    expect(result.cluster).toEqual(cluster);
  });

  it('ignores unknown fields in lenient mode and rejects them in strict mode', () => {
    const document = { ...toWireCluster(cluster), cost_center: '0001' };
    expect(wireClusterSchema('lenient').safeParse(document).success).toBe(true);
    expect(validateWireCluster(document, 'strict').issues).toEqual([
      { path: ['cost_center'], message: 'unknown field' },
    ]);
  });

  it('treats null collections and a null status as empty', () => {
    const document = { ...toWireCluster(cluster), config_items: null, node_pools: null, status: null };
    const parsed = wireClusterSchema('strict').parse(document);
    expect(fromWireCluster(parsed)).toMatchObject({
      configItems: {},
      nodePools: [],
      status: { currentVersion: '', lastVersion: '', nextVersion: '', problems: [] },
    });
  });

  it('rejects a cluster document that is not a mapping', () => {
    expect(validateWireCluster(['x'], 'lenient').issues).toEqual([
      { path: [], message: 'expected a cluster mapping, got a list' },
    ]);
  });

  it('rejects a non-URL api_server_url and a non-integer criticality', () => {
    const document = { ...toWireCluster(cluster), api_server_url: 'kube-1.example.org', criticality_level: 1.5 };
    expect(validateWireCluster(document, 'strict').issues).toEqual([
      { path: ['api_server_url'], message: 'must be an absolute URL, e.g. https://kube-1.example.org' },
      { path: ['criticality_level'], message: 'expected an integer, got number 1.5' },
    ]);
  });
});
