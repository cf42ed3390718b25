/** Offline answers to amiID and instance-type questions, from the values file's lookups and the pinned table. */
import { OfflineLookups, parseLookupData } from '../../../lambdas/adapters/values/offline-lookups';
import { StaticValuesProvider, parseValuesFile } from '../../../lambdas/adapters/values/static-values-provider';
import { INSTANCE_TYPE_FACTS } from '../../../lambdas/core/render/instance-info';
import { ConfigError, ValidationError } from '../../../lambdas/shared/errors';
import { cluster, pool } from '../../core/render/fixtures';

const FILE = `
defaults:
  vpc_ipv4_cidr: 10.9.0.0/16
lookups:
  amis:
    - {name: node-image-v1, owner: "123456789012", id: ami-0123456789abcdef0}
  instance_types:
    m7i.large: {vcpu: 2, memory_mib: 8192, architecture: amd64}
    m6i.large: {vcpu: 3, memory_mib: 9000, architecture: amd64, instance_storage_devices: 1, instance_storage_device_size_gb: 10}
`;

describe('OfflineLookups', () => {
  const file = parseValuesFile(FILE, 'values.yaml');
  const lookups = new OfflineLookups(file.lookups);

  it('answers amiID from the values file, and names where to add an unknown image', async () => {
    await expect(lookups.amiId('node-image-v1', '123456789012')).resolves.toBe('ami-0123456789abcdef0');
    await expect(lookups.amiId('node-image-v2', '123456789012')).rejects.toThrow(
      new ConfigError(
        'the AMI named node-image-v2 owned by 123456789012 is not known offline: add it to --values under lookups.amis (name, owner, id)',
      ),
    );
  });

  it('answers instance types from the values file first, then the pinned table', async () => {
    await expect(lookups.instanceType('m7i.large')).resolves.toMatchObject({ vcpu: 2, instanceStorageDevices: 0 });
    await expect(lookups.instanceType('m6i.large')).resolves.toMatchObject({ vcpu: 3, memoryMiB: 9000 });
    await expect(lookups.instanceType('r6i.large')).resolves.toMatchObject({ vcpu: 2, memoryMiB: 16384 });
    await expect(lookups.instanceType('x9.huge')).rejects.toThrow(
      /x9.huge is not in the offline table: add it to --values/,
    );
  });

  it('reports every malformed entry of the lookups section', () => {
    const issues: string[] = [];
    parseLookupData(
      { amis: [{ name: 'a', owner: 1 }], instance_types: { t: { vcpu: -1, architecture: 'x86' } } },
      'v.yaml',
      issues,
    );
    expect(issues).toEqual([
      'v.yaml: lookups.amis[0] needs name, owner and id (strings; quote an owner id)',
      'v.yaml: lookups.instance_types.t.architecture must be amd64 or arm64',
      'v.yaml: lookups.instance_types.t.vcpu must be a whole number, got -1',
      'v.yaml: lookups.instance_types.t.memory_mib must be a whole number, got null',
    ]);
    expect(() => parseValuesFile('lookups: {amis: 3}\n', 'v.yaml')).toThrow(ValidationError);
  });
});

describe('StaticValuesProvider: instance facts', () => {
  it("gives the facts of the ASG pools' known types as Values.InstanceTypeFacts", async () => {
    const provider = new StaticValuesProvider(parseValuesFile(FILE, 'values.yaml'));
    const values = await provider.clusterValues(
      cluster({
        nodePools: [
          pool({ instanceTypes: ['m7i.large', 'x9.huge'] }),
          pool({ name: 'b', instanceTypes: ['m5.large'] }),
        ],
      }),
    );
    expect(Object.keys(values[INSTANCE_TYPE_FACTS] as object).sort()).toEqual(['m5.large', 'm7i.large']);
    expect(values.vpc_ipv4_cidr).toBe('10.9.0.0/16');
    expect(values).not.toHaveProperty('lookups');
  });
});

describe('StaticValuesProvider: load_balancer_certificate', () => {
  const CERTIFICATES = `
lookups:
  certificates:
    - {arn: "arn:aws:acm:eu-central-1:123456789012:certificate/zone", domains: ["*.test.example.org"]}
    - {arn: "arn:aws:acm:eu-central-1:123456789012:certificate/other", domains: ["*.other.org"]}
`;
  const provider = new StaticValuesProvider(parseValuesFile(CERTIFICATES, 'values.yaml'));

  it('is the listed certificate matching the API server, or the one the cluster names', async () => {
    const named = { load_balancer_certificate: 'arn:aws:acm:eu-central-1:123456789012:certificate/given' };

    const looked = await provider.clusterValues(cluster());
    const given = await provider.clusterValues(cluster({ apiServerUrl: 'https://127.0.0.2:6443', configItems: named }));

    expect(looked.load_balancer_certificate).toBe('arn:aws:acm:eu-central-1:123456789012:certificate/zone');
    expect(given.load_balancer_certificate).toBe('arn:aws:acm:eu-central-1:123456789012:certificate/given');
  });

  it('fails naming the host when no listed certificate matches and the cluster names none', async () => {
    await expect(provider.clusterValues(cluster({ apiServerUrl: 'https://127.0.0.2:6443' }))).rejects.toThrow(
      /no ISSUED ACM certificate matches the API server's host 127\.0\.0\.2/,
    );
  });
});
