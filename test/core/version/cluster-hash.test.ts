import type { Cluster, NodePool } from '../../../lambdas/core/model/cluster';
import { clusterHash, compareCodePoints } from '../../../lambdas/core/version/cluster-hash';

/** Fixture whose hash was computed once with Go's crypto/sha1 + encoding/binary (little-endian), as CLM does. */
function fixture(): Cluster {
  return {
    id: 'aws:123456789012:eu-central-1:kube-1',
    alias: 'kube-1',
    localId: 'kube-1',
    apiServerUrl: 'https://kube-1.example.org',
    channel: 'stable',
    configItems: { vpc_id: 'vpc-123', etcd_instance_type: 'm5.large', ünïcode_key: 'wert' },
    criticalityLevel: 2,
    environment: 'production',
    infrastructureAccount: 'aws:123456789012',
    lifecycleStatus: 'ready',
    nodePools: [
      {
        name: 'master-default',
        profile: 'master-default',
        instanceTypes: ['m5.large'],
        discountStrategy: 'none',
        minSize: 1,
        maxSize: 2,
        configItems: {},
      },
      {
        name: 'worker-default',
        profile: 'worker-splitaz',
        instanceTypes: ['m5.xlarge', 'm5.2xlarge'],
        discountStrategy: 'spot',
        minSize: 3,
        maxSize: 21,
        // U+FF21 sorts before U+1F600 by UTF-8 bytes (Go) but after it by UTF-16 units (JS default sort).
        configItems: { taints: 'dedicated=x:NoSchedule', labels: 'a=b', '\uff21': '1', '\u{1F600}': '2' },
      },
      {
        name: 'karpenter',
        profile: 'worker-karpenter',
        instanceTypes: [],
        discountStrategy: 'none',
        minSize: 0,
        maxSize: 0,
        configItems: {},
      },
    ],
    provider: 'zalando-aws',
    region: 'eu-central-1',
    status: { currentVersion: 'x#y', lastVersion: '', nextVersion: '', problems: [] },
    owner: 'team/foo',
    accountName: 'foo',
    createdAt: '2020-01-01T00:00:00Z',
  };
}

function withPool(cluster: Cluster, index: number, change: Partial<NodePool>): Cluster {
  return { ...cluster, nodePools: cluster.nodePools.map((p, i) => (i === index ? { ...p, ...change } : p)) };
}

describe('clusterHash', () => {
  it('matches the value CLM computes for the fixture (pinned; catches any change of the encoding)', () => {
    expect(clusterHash(fixture())).toBe('G_AZt_AZ5dNtcxHhFQ_01zUlxy0');
  });

  it('is base64url without padding of a SHA-1 (27 characters)', () => {
    expect(clusterHash(fixture())).toMatch(/^[A-Za-z0-9_-]{27}$/);
  });

  it('is deterministic and ignores the order config items were written in', () => {
    const reordered = {
      ...fixture(),
      configItems: { ünïcode_key: 'wert', vpc_id: 'vpc-123', etcd_instance_type: 'm5.large' },
    };
    expect(clusterHash(fixture())).toBe(clusterHash(fixture()));
    expect(clusterHash(reordered)).toBe(clusterHash(fixture()));
  });

  it.each([
    ['alias', { alias: 'other' }],
    ['owner', { owner: 'team/bar' }],
    ['accountName', { accountName: 'bar' }],
    ['createdAt', { createdAt: '2021-01-01T00:00:00Z' }],
    [
      'status',
      {
        status: {
          currentVersion: 'a#b',
          lastVersion: 'c#d',
          nextVersion: 'e#f',
          problems: [{ type: 't', title: 'x' }],
        },
      },
    ],
  ] as const)('does not change when only %s changes', (_field, change) => {
    expect(clusterHash({ ...fixture(), ...change } as Cluster)).toBe(clusterHash(fixture()));
  });

  it.each([
    ['id', { id: 'aws:123456789012:eu-central-1:kube-9' }],
    ['infrastructureAccount', { infrastructureAccount: 'aws:210987654321' }],
    ['localId', { localId: 'kube-9' }],
    ['apiServerUrl', { apiServerUrl: 'https://kube-9.example.org' }],
    ['channel', { channel: 'beta' }],
    ['environment', { environment: 'test' }],
    ['criticalityLevel', { criticalityLevel: 3 }],
    ['lifecycleStatus', { lifecycleStatus: 'requested' }],
    ['provider', { provider: 'zalando-eks' }],
    ['region', { region: 'eu-west-1' }],
    [
      'a config item value',
      { configItems: { vpc_id: 'vpc-999', etcd_instance_type: 'm5.large', ünïcode_key: 'wert' } },
    ],
    [
      'an added config item',
      { configItems: { vpc_id: 'vpc-123', etcd_instance_type: 'm5.large', ünïcode_key: 'wert', extra: '' } },
    ],
  ] as const)('changes when %s changes', (_field, change) => {
    expect(clusterHash({ ...fixture(), ...change } as Cluster)).not.toBe(clusterHash(fixture()));
  });

  it.each([
    ['name', { name: 'worker-other' }],
    ['profile', { profile: 'worker-combined' }],
    ['instance types', { instanceTypes: ['m5.xlarge'] }],
    ['instance type order', { instanceTypes: ['m5.2xlarge', 'm5.xlarge'] }],
    ['discount strategy', { discountStrategy: 'none' }],
    ['min size', { minSize: 4 }],
    ['max size', { maxSize: 22 }],
    ['config items', { configItems: { taints: '' } }],
  ] as const)('changes when a pool %s changes', (_field, change) => {
    expect(clusterHash(withPool(fixture(), 1, change))).not.toBe(clusterHash(fixture()));
  });

  it('depends on the order of node pools', () => {
    const cluster = fixture();
    const swapped = { ...cluster, nodePools: [cluster.nodePools[1], cluster.nodePools[0], cluster.nodePools[2]] };
    expect(clusterHash(swapped)).not.toBe(clusterHash(cluster));
  });

  it('encodes sizes as integers, not text (1 and 2 differ from 12)', () => {
    const a = withPool(fixture(), 0, { minSize: 1, maxSize: 2 });
    const b = withPool(fixture(), 0, { minSize: 12, maxSize: 0 });
    expect(clusterHash(a)).not.toBe(clusterHash(b));
  });
});

describe('compareCodePoints', () => {
  it('orders by code point like Go sort.Strings, not by UTF-16 unit', () => {
    expect(['\u{1F600}', '\uff21', 'b', 'a', 'ab'].sort(compareCodePoints)).toEqual([
      'a',
      'ab',
      'b',
      '\uff21',
      '\u{1F600}',
    ]);
    expect(['\u{1F600}', '\uff21'].sort()).toEqual(['\u{1F600}', '\uff21']);
  });
});
