import { renderEtcdStack } from '../../../lambdas/core/render/render-etcd-stack';
import { ETCD_STACK_POLICY, managesEtcdStack } from '../../../lambdas/core/render/etcd-settings';
import { INSTANCE_TYPE_FACTS } from '../../../lambdas/core/render/instance-info';
import { sha512Hex } from '../../../lambdas/core/render/files-bundle';
import { PINNED_INSTANCE_TYPES } from '../../../lambdas/core/values/instance-types';
import { ConfigError } from '../../../lambdas/shared/errors';
import { cluster, engine, snapshot } from './fixtures';

const KEY = 'arn:aws:kms:eu-central-1:123456789012:key/etcd';
const FILES =
  'files:\n  - {path: /etc/etcd/key, data: "{{base64 Cluster.LocalID}}", permissions: 0400, encrypted: true}\n';
const STACK = [
  'Resources:',
  '  Etcd:',
  '    Type: AWS::AutoScaling::AutoScalingGroup',
  '    Properties:',
  '      Tags: [{Key: files, Value: "{{Values.S3GeneratedFilesPath}}"}, {Key: vcpu, Value: "{{Values.etcd_instance_type_info.VCPU}}"}, {Key: key, Value: "{{Values.etcd_kms_key_arn}}"}]',
  '',
].join('\n');
const etcdCluster = (items: Record<string, string> = {}) =>
  cluster({ configItems: { manage_etcd_stack: 'true', etcd_instance_type: 'm6i.large', ...items } });
const values = {
  etcd_kms_key_arn: KEY,
  [INSTANCE_TYPE_FACTS]: { 'm6i.large': PINNED_INSTANCE_TYPES.get('m6i.large') },
};
const snapshots = [snapshot('main', { 'cluster/etcd/stack.yaml': STACK, 'cluster/etcd/files.yaml': FILES })];

describe('renderEtcdStack (CLM step 10)', () => {
  it('renders the bundle under <LocalID>/etcd/ with the key of alias/etcd-cluster, then the stack that names it', async () => {
    const c = etcdCluster();
    const rendered = await renderEtcdStack({ cluster: c, snapshots, values, engine: engine() });

    const sha = sha512Hex('files:\n  - {path: /etc/etcd/key, data: "a3ViZS0x", permissions: 0400, encrypted: true}\n');
    const path = `s3://cluster-lifecycle-manager-123456789012-eu-central-1/kube-1/etcd/${sha}.userdata`;
    expect(rendered.files).toMatchObject({
      role: 'etcd',
      s3Path: path,
      kmsKeyOutput: 'alias/etcd-cluster',
      kmsKeyId: KEY,
    });
    expect(rendered.stack).toMatchObject({
      name: 'etcd-cluster-etcd',
      kind: 'etcd',
      tags: { application: 'kubernetes', component: 'etcd-cluster' },
      stackPolicy: ETCD_STACK_POLICY,
    });
    expect(rendered.stack.template).toContain(`Value: "${path}"`);
    expect(rendered.stack.template).toContain('{Key: vcpu, Value: "2"}');
    expect(rendered.stack.template).toContain(`Value: "${KEY}"`);
    // what the main stack and everything after it see
    expect(rendered.values).toMatchObject({ S3GeneratedFilesPath: path, etcd_kms_key_arn: KEY });
    expect(JSON.parse(ETCD_STACK_POLICY).Statement[1]).toEqual({
      Effect: 'Deny',
      Action: ['Update:Replace', 'Update:Delete'],
      Principal: '*',
      Condition: {
        StringEquals: { ResourceType: ['AWS::AutoScaling::AutoScalingGroup', 'AWS::S3::Bucket', 'AWS::IAM::Role'] },
      },
    });
  });

  it('names the stack after etcd_stack_name, and is only for zalando-aws clusters that ask for it', async () => {
    const rendered = await renderEtcdStack({
      cluster: etcdCluster({ etcd_stack_name: 'etcd-b' }),
      snapshots,
      values,
      engine: engine(),
    });
    expect(rendered.stack.name).toBe('etcd-b');
    expect(managesEtcdStack(etcdCluster())).toBe(true);
    expect(managesEtcdStack({ ...etcdCluster(), provider: 'zalando-eks' })).toBe(false);
    expect(managesEtcdStack(cluster())).toBe(false);
  });

  it('fails clearly without etcd_instance_type, without the key, or without cluster/etcd/', async () => {
    const render = (c = etcdCluster(), v: Record<string, unknown> = values, s = snapshots) =>
      renderEtcdStack({ cluster: c, snapshots: s, values: v, engine: engine() });
    await expect(render(cluster({ configItems: { manage_etcd_stack: 'true' } }))).rejects.toThrow(
      'manage_etcd_stack is "true", but config item etcd_instance_type is not set',
    );
    await expect(render(etcdCluster(), { ...values, etcd_kms_key_arn: undefined })).rejects.toThrow(
      'the etcd stack needs the key of alias/etcd-cluster',
    );
    await expect(render(etcdCluster(), values, [snapshot('main', {})])).rejects.toThrow(ConfigError);
  });
});
