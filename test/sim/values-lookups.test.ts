import { SimulatedWorld } from '../../lambdas/sim';
import { ConfigError, NotFoundError } from '../../lambdas/shared/errors';
import { testCluster } from './fixtures';

describe('simulated values and lookups', () => {
  it('describes the account network like the real values provider', async () => {
    const cluster = testCluster();
    const values = await SimulatedWorld.create().forCluster(cluster).values.clusterValues(cluster);
    const subnets = values.subnets as Record<string, string>;

    expect(values).toMatchObject({
      vpc_id: expect.stringMatching(/^vpc-[0-9a-f]{17}$/),
      vpc_ipv4_cidr: '10.0.0.0/16',
      availability_zones: ['eu-central-1a', 'eu-central-1b', 'eu-central-1c'],
      hosted_zone: 'example.org',
      load_balancer_certificate: expect.stringMatching(
        /^arn:aws:acm:eu-central-1:123456789012:certificate\/[0-9a-f-]{36}$/,
      ),
    });
    expect(Object.keys(subnets)).toEqual(['eu-central-1a', 'eu-central-1b', 'eu-central-1c', '*']);
    expect(subnets['*']).toBe([subnets['eu-central-1a'], subnets['eu-central-1b'], subnets['eu-central-1c']].join(','));
    expect(Object.values(values.lb_subnets as object)).not.toContain(subnets['eu-central-1a']);
  });

  it('restricts to the configured availability zones and subnets, and rejects unknown ones', async () => {
    const base = testCluster();
    const ports = SimulatedWorld.create().forCluster(base);
    const all = (await ports.values.clusterValues(base)).subnets as Record<string, string>;

    const zoned = await ports.values.clusterValues(
      testCluster({ configItems: { availability_zones: 'eu-central-1b' } }),
    );
    const picked = await ports.values.clusterValues(testCluster({ configItems: { subnets: all['eu-central-1c'] } }));

    expect(zoned.availability_zones).toEqual(['eu-central-1b']);
    expect(picked.subnets).toEqual({ 'eu-central-1c': all['eu-central-1c'], '*': all['eu-central-1c'] });
    await expect(
      ports.values.clusterValues(testCluster({ configItems: { subnets: 'subnet-nope' } })),
    ).rejects.toBeInstanceOf(ConfigError);
    await expect(ports.values.clusterValues(testCluster({ configItems: { vpc_id: 'vpc-nope' } }))).rejects.toThrow(
      'field config_items.vpc_id',
    );
  });

  it('finds AMIs from the scenario, derives stable ones otherwise, and knows common instance types', async () => {
    const lookups = SimulatedWorld.create({
      images: [{ name: 'kubernetes-1.31', owner: '861068367966', id: 'ami-0abc' }],
    }).forCluster(testCluster()).lookups;

    expect(await lookups.amiId('kubernetes-1.31', '861068367966')).toBe('ami-0abc');
    expect(await lookups.amiId('other', '1')).toMatch(/^ami-[0-9a-f]{17}$/);
    expect(await lookups.amiId('other', '1')).toBe(await lookups.amiId('other', '1'));
    expect(await lookups.instanceType('m6g.large')).toEqual({
      instanceType: 'm6g.large',
      vcpu: 2,
      memoryMiB: 8192,
      architecture: 'arm64',
      instanceStorageDevices: 0,
      instanceStorageDeviceSizeGB: 0,
    });
    await expect(lookups.instanceType('x9.huge')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('chooses load_balancer_certificate from the account’s certificates, unless the cluster names one', async () => {
    // Arrange: the account's only certificate is for another zone
    const world = SimulatedWorld.create({
      accounts: [{ account: '123456789012', region: 'eu-central-1', certificates: [{ domains: ['*.other.org'] }] }],
    });
    const cluster = testCluster({ apiServerUrl: 'https://kube-1.example.org' });
    const named = testCluster({
      apiServerUrl: 'https://kube-1.example.org',
      configItems: { load_balancer_certificate: 'arn:aws:acm:eu-central-1:123456789012:certificate/given' },
    });

    // Act
    const looked = world.forCluster(cluster).values.clusterValues(cluster);
    const given = await world.forCluster(named).values.clusterValues(named);

    // Assert
    await expect(looked).rejects.toThrow(ConfigError);
    await expect(looked).rejects.toThrow(
      /no ISSUED ACM certificate matches the API server's host kube-1\.example\.org/,
    );
    expect(given.load_balancer_certificate).toBe('arn:aws:acm:eu-central-1:123456789012:certificate/given');
  });

  it('stores artefacts in the simulated bucket', async () => {
    const world = SimulatedWorld.create();

    await world.artifacts.put('configs/abc.json', '{"a":1}');

    expect(await world.artifacts.get('configs/abc.json')).toBe('{"a":1}');
    expect(await world.artifacts.get('configs/none.json')).toBeUndefined();
    expect(world.artifacts.urlFor?.('configs/abc.json')).toBe(
      'https://clm-simulated-artifacts.s3.amazonaws.com/configs/abc.json',
    );
  });
});
