import { gunzipSync } from 'node:zlib';
import { parseCfnTemplate } from '../../../lambdas/core/cloudformation/cfn-yaml';
import { renderNodePool } from '../../../lambdas/core/render/render-node-pool';
import { sha512Hex } from '../../../lambdas/core/render/files-bundle';
import { ConfigError } from '../../../lambdas/shared/errors';
import { INSTANCE_TYPE_FACTS } from '../../../lambdas/core/render/instance-info';
import { PINNED_INSTANCE_TYPES } from '../../../lambdas/core/values/instance-types';
import { VALUES, cluster, engine, mainSourceFiles, pool, snapshot } from './fixtures';

const snapshots = [snapshot('main', mainSourceFiles())];

describe('renderNodePool', () => {
  it('renders files, user data and the stack in order, each seeing what the previous step produced', async () => {
    // Arrange
    const worker = pool({ name: 'default-worker' });
    const c = cluster({ nodePools: [worker] });

    // Act
    const rendered = await renderNodePool({
      cluster: c,
      pool: worker,
      snapshots,
      values: VALUES,
      engine: engine(),
    });

    // Assert: the files bundle is addressed by the SHA-512 of the rendered files.yaml
    const filesText = 'files:\n  - path: /etc/pool\n    data: ZGVmYXVsdC13b3JrZXI=\n    permissions: 0644\n';
    expect(rendered.files.sha512).toBe(sha512Hex(filesText));
    // in CLM's bucket of the cluster's account and region
    const bucket = 'cluster-lifecycle-manager-123456789012-eu-central-1';
    expect(rendered.files.s3Path).toBe(`s3://${bucket}/kube-1/worker/${sha512Hex(filesText)}.userdata`);
    expect(rendered.files).toMatchObject({ bucket, key: `kube-1/worker/${sha512Hex(filesText)}.userdata` });
    expect(rendered.files.files).toEqual([
      { path: '/etc/pool', data: 'ZGVmYXVsdC13b3JrZXI=', encrypted: false, permissions: 0o644 },
    ]);
    expect(rendered.files).toMatchObject({ kmsKeyOutput: 'WorkerFilesEncryptionKey', kmsKeyId: 'key-worker' });
    // the user data points at the files and is carried gzip+base64 in the stack
    expect(rendered.userData).toBe(`#cloud-config\npool: default-worker\nfiles: ${rendered.files.s3Path}\n`);
    const template = parseCfnTemplate(rendered.stack.template, 'x')! as any;
    const userData = template.Resources.LaunchTemplate.Properties.LaunchTemplateData.UserData;
    expect(gunzipSync(Buffer.from(userData, 'base64')).toString('utf8')).toBe(rendered.userData);
    expect(template.Resources.AutoScalingGroup.Properties.LaunchTemplate.Version).toEqual({
      'Fn::GetAtt': ['LaunchTemplate', 'LatestVersionNumber'],
    });
  });

  it('names and tags the stack as CLM does, CLM tags winning over Metadata.Tags', async () => {
    const worker = pool({ name: 'db', profile: 'worker-default' });
    const rendered = await renderNodePool({
      cluster: cluster({ nodePools: [worker] }),
      pool: worker,
      snapshots,
      values: VALUES,
      engine: engine(),
    });
    expect(rendered.stack).toMatchObject({
      name: 'nodepool-db-aws-123456789012-eu-central-1-kube-1',
      kind: 'node-pool',
      pool: 'db',
      tags: {
        team: 'nodes',
        NodePool: 'db',
        'kubernetes.io/cluster/aws:123456789012:eu-central-1:kube-1': 'owned',
        'kubernetes.io/role/node-pool': 'true',
        'kubernetes.io/node-pool': 'db',
        'kubernetes.io/node-pool/profile': 'worker-default',
      },
    });
    expect(rendered.master).toBe(false);
  });

  it('uses the master path and key for master pools, and the default bucket', async () => {
    const master = pool({ name: 'master', profile: 'master-default' });
    const rendered = await renderNodePool({
      cluster: cluster({ nodePools: [master] }),
      pool: master,
      snapshots,
      values: VALUES,
      engine: engine(),
    });
    expect(rendered.master).toBe(true);
    expect(rendered.files.s3Path).toMatch(
      /^s3:\/\/cluster-lifecycle-manager-123456789012-eu-central-1\/kube-1\/master\/[0-9a-f]{128}\.userdata$/,
    );
    expect(rendered.files.kmsKeyId).toBe('key-master');
  });

  it('restricts zones for the stack only when the pool sets availability_zones', async () => {
    const zonal = pool({ name: 'zonal', configItems: { availability_zones: 'eu-central-1b' } });
    const rendered = await renderNodePool({
      cluster: cluster({ nodePools: [zonal] }),
      pool: zonal,
      snapshots,
      values: VALUES,
      engine: engine(),
    });
    const asg = (parseCfnTemplate(rendered.stack.template, 'x') as any).Resources.AutoScalingGroup.Properties;
    expect(asg.VPCZoneIdentifier).toEqual({ 'Fn::Split': [',', 'subnet-b'] });
    expect(asg.AvailabilityZones).toEqual(['eu-central-1b']);
  });

  it('does not change the values it was given (each pool works on a copy)', async () => {
    const values = structuredClone(VALUES);
    const worker = pool();
    await renderNodePool({
      cluster: cluster({ nodePools: [worker] }),
      pool: worker,
      snapshots,
      values,
      engine: engine(),
    });
    expect(values).toEqual(VALUES);
  });

  it('fails naming pool and profile when the profile does not exist', async () => {
    const odd = pool({ name: 'odd', profile: 'worker-gpu' });
    await expect(
      renderNodePool({
        cluster: cluster({ nodePools: [odd] }),
        pool: odd,
        snapshots,
        values: VALUES,
        engine: engine(),
      }),
    ).rejects.toThrow(
      'main/cluster/node-pools/worker-gpu/files.yaml, field node_pools.odd.profile: node pool "odd" uses profile "worker-gpu", which has no files.yaml',
    );
  });

  it('refuses Karpenter pools, which have no stack (renderKarpenterPool renders them)', async () => {
    const karpenter = pool({ name: 'k', profile: 'worker-karpenter' });
    await expect(
      renderNodePool({
        cluster: cluster({ nodePools: [karpenter] }),
        pool: karpenter,
        snapshots,
        values: VALUES,
        engine: engine(),
      }),
    ).rejects.toThrow(ConfigError);
  });

  it('gives every pool template Values.InstanceInfo from the facts of its instance types (CLM synthetic info)', async () => {
    // Arrange: a userdata.yaml that reads the info's fields and methods
    const worker = pool({ name: 'w', instanceTypes: ['m6id.xlarge', 'm6i.large'] });
    const files = mainSourceFiles({
      'cluster/node-pools/worker-default/userdata.yaml':
        '{{Values.InstanceInfo.InstanceType}} {{Values.InstanceInfo.VCPU}} {{Values.InstanceInfo.Architecture}} ' +
        '{{Values.InstanceInfo.MemoryFraction 50}} {{Values.InstanceInfo.AvailableStorage 0.9 50 2}} {{Values.supports_t2_unlimited}}',
    });
    const facts = {
      'm6id.xlarge': PINNED_INSTANCE_TYPES.get('m6id.xlarge'),
      'm6i.large': PINNED_INSTANCE_TYPES.get('m6i.large'),
    };

    // Act
    const rendered = await renderNodePool({
      cluster: cluster({ nodePools: [worker] }),
      pool: worker,
      snapshots: [snapshot('main', files)],
      values: { ...VALUES, [INSTANCE_TYPE_FACTS]: facts },
      engine: engine(),
    });

    // Assert: minimum of both types (no instance storage on m6i.large: the root volume counts)
    expect(rendered.userData).toBe('<multiple> 2 amd64 4294967296 100 false');
  });

  it('leaves Values.InstanceInfo out when a type is unknown, so only templates that read it fail', async () => {
    const worker = pool({ name: 'w', instanceTypes: ['x9.huge'] });
    const files = mainSourceFiles({
      'cluster/node-pools/worker-default/userdata.yaml': '{{Values.InstanceInfo.VCPU}}',
    });
    await expect(
      renderNodePool({
        cluster: cluster({ nodePools: [worker] }),
        pool: worker,
        snapshots: [snapshot('main', files)],
        values: { ...VALUES, [INSTANCE_TYPE_FACTS]: {} },
        engine: engine(),
      }),
    ).rejects.toThrow('"Values.InstanceInfo.VCPU" is not defined');
  });
});
