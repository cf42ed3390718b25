import { gzipSync } from 'node:zlib';
import { CreateAutoScalingGroupCommand } from '@aws-sdk/client-auto-scaling';
import { CreateLaunchTemplateCommand } from '@aws-sdk/client-ec2';
import {
  AddRoleToInstanceProfileCommand,
  CreateInstanceProfileCommand,
  CreateRoleCommand,
  PutRolePolicyCommand,
} from '@aws-sdk/client-iam';
import { CreateKeyCommand, EncryptCommand } from '@aws-sdk/client-kms';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createAwsClients, type AwsClients } from '../../../lambdas/adapters/aws/aws-clients';
import { ClientNodeKubeCluster } from '../../../lambdas/adapters/kube/client-node-kube-cluster';
import { packFilesBundle } from '../../../lambdas/core/nodes/files-archive';
import { bootstrapClients, type BootstrapClients } from '../support/aws-node-bootstrap';
import { integrationEnvironment, MOTO_ACCOUNT, MOTO_CREDENTIALS, REGION, resetMoto } from '../support/environment';
import { eventually } from '../support/eventually';
import { NodeConditions } from '../support/node-conditions';
import { NodeJoiner } from '../support/node-joiner';

// The node joiner's bootstrap check against moto's EC2, IAM, S3 and KMS: an instance becomes a Ready KWOK node only when
// it fetched its files bundle and decrypted its secrets as its instance profile's role, as AWS would let it; otherwise
// its node registers NotReady, saying why.
const env = integrationEnvironment();
const kube = new ClientNodeKubeCluster({ kubeconfigPath: env.kubeconfig });
const CLUSTER_TAG = 'kubernetes.io/cluster/bootstrap-test';
const BUCKET = `cluster-lifecycle-manager-${MOTO_ACCOUNT}-${REGION}`;
const TRUST = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
});
let clients: AwsClients;
let boot: BootstrapClients;

/** A role with `statements` as its inline policy, in an instance profile of the same name. */
async function nodeRole(name: string, statements: object[]): Promise<string> {
  const role = await boot.iam.send(new CreateRoleCommand({ RoleName: name, AssumeRolePolicyDocument: TRUST }));
  if (statements.length)
    await boot.iam.send(
      new PutRolePolicyCommand({
        RoleName: name,
        PolicyName: 'files',
        PolicyDocument: JSON.stringify({ Version: '2012-10-17', Statement: statements }),
      }),
    );
  await boot.iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: name }));
  await boot.iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: name, RoleName: name }));
  return role.Role!.Arn!;
}

/** An Auto Scaling group of one instance whose user data names `bundle`, launched with instance profile `profile`. */
async function pool(name: string, profile: string, bundle: string): Promise<void> {
  const userData = gzipSync(`#cloud-config\nwrite_files:\n  - content: S3_CERTS_BUCKET=${bundle}\n`).toString('base64');
  const lt = await clients.ec2.send(
    new CreateLaunchTemplateCommand({
      LaunchTemplateName: name,
      LaunchTemplateData: {
        ImageId: 'ami-12c6146b',
        InstanceType: 'm5.large',
        IamInstanceProfile: { Name: profile },
        UserData: userData,
      },
    }),
  );
  await clients.autoScaling.send(
    new CreateAutoScalingGroupCommand({
      AutoScalingGroupName: name,
      LaunchTemplate: { LaunchTemplateId: lt.LaunchTemplate!.LaunchTemplateId!, Version: '1' },
      MinSize: 1,
      MaxSize: 1,
      DesiredCapacity: 1,
      AvailabilityZones: ['eu-central-1a'],
      Tags: [
        { Key: CLUSTER_TAG, Value: 'owned', PropagateAtLaunch: true },
        { Key: 'node.kubernetes.io/node-pool', Value: name, PropagateAtLaunch: true },
        { Key: 'node.kubernetes.io/role', Value: 'worker', PropagateAtLaunch: true },
      ],
    }),
  );
}

beforeAll(async () => {
  await resetMoto(env.awsEndpoint);
  clients = createAwsClients({ region: REGION, endpoint: env.awsEndpoint, credentials: MOTO_CREDENTIALS });
  boot = bootstrapClients({ endpoint: env.awsEndpoint, region: REGION, credentials: MOTO_CREDENTIALS });
  await clients.s3.send(
    new CreateBucketCommand({ Bucket: BUCKET, CreateBucketConfiguration: { LocationConstraint: REGION } }),
  );
  const reader = await nodeRole('reader', [
    { Effect: 'Allow', Action: 's3:GetObject', Resource: `arn:aws:s3:::${BUCKET}/kube-1/worker/*` },
  ]);
  await nodeRole('no-read', []);
  // The key grants the reader role itself (and its account's administrators, without delegating to IAM policies)
  const policy = {
    Version: '2012-10-17',
    Statement: [
      { Effect: 'Allow', Principal: { AWS: reader }, Action: 'kms:Decrypt', Resource: '*' },
      {
        Effect: 'Allow',
        Principal: { AWS: `arn:aws:iam::${MOTO_ACCOUNT}:user/admin` },
        Action: 'kms:*',
        Resource: '*',
      },
    ],
  };
  const key = (await clients.kms.send(new CreateKeyCommand({ Policy: JSON.stringify(policy) }))).KeyMetadata!.Arn!;
  const otherKey = (await clients.kms.send(new CreateKeyCommand({}))).KeyMetadata!.Arn!;
  const files = [
    { path: '/etc/cluster', data: Buffer.from('kube-1').toString('base64'), encrypted: false, permissions: 0o644 },
    { path: '/etc/secret', data: Buffer.from('s3cr3t').toString('base64'), encrypted: true, permissions: 0o400 },
  ];
  const put = async (key: string, body: Uint8Array | string) =>
    clients.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }));
  const pack = (kmsKeyId: string) =>
    packFilesBundle(
      { s3Path: 'x', files, kmsKeyOutput: 'WorkerFilesEncryptionKey', kmsKeyId },
      async (id, plain) =>
        (await clients.kms.send(new EncryptCommand({ KeyId: id, Plaintext: plain }))).CiphertextBlob!,
    );
  await put('kube-1/worker/good.userdata', await pack(key));
  await put('kube-1/worker/json.userdata', JSON.stringify({ files }));
  await put('kube-1/worker/other-key.userdata', await pack(otherKey));
  await pool('good', 'reader', `s3://${BUCKET}/kube-1/worker/good.userdata`);
  await pool('wrong-bucket', 'reader', 's3://clm-artifacts/kube-1/worker/good.userdata');
  await pool('json', 'reader', `s3://${BUCKET}/kube-1/worker/json.userdata`);
  await pool('no-read', 'no-read', `s3://${BUCKET}/kube-1/worker/good.userdata`);
  await pool('other-key', 'reader', `s3://${BUCKET}/kube-1/worker/other-key.userdata`);
});

describe('NodeJoiner with the bootstrap check (moto EC2, IAM, S3, KMS)', () => {
  it('makes a Ready node only of the instance that fetched and decrypted its bundle; the others say why not', async () => {
    const joiner = new NodeJoiner(clients, kube, CLUSTER_TAG, {
      clients: boot,
      conditions: new NodeConditions(env.kubeconfig),
    });
    expect((await joiner.sync()).joined).toHaveLength(5);

    const byPool = await eventually('the good node Ready and the others NotReady with a reason', async () => {
      const nodes = (await kube.listNodes()).filter((n) => n.labels['clm-integration/joined'] === 'true');
      const found = Object.fromEntries(nodes.map((n) => [n.labels['node.kubernetes.io/node-pool']!, n]));
      const settled = Object.values(found).filter((n) => n.ready || n.notReadyReason).length === 5;
      return settled ? found : undefined;
    });
    const reason = (name: string) => byPool?.[name]?.notReadyReason;
    expect(byPool?.good).toMatchObject({ ready: true, labels: { type: 'kwok' } });
    expect(reason('wrong-bucket')).toBe(
      'FilesBundleUnavailable: files bundle s3://clm-artifacts/kube-1/worker/good.userdata: NoSuchBucket: no bucket clm-artifacts exists',
    );
    expect(reason('json')).toMatch(
      /^FilesBundleUnavailable: files bundle s3:\/\/\S+\/json\.userdata: not a tar\.gz \(starts with "\{\\"files\\":\[/,
    );
    expect(reason('no-read')).toBe(
      `FilesBundleUnavailable: files bundle s3://${BUCKET}/kube-1/worker/good.userdata: AccessDenied: s3:GetObject on arn:aws:s3:::${BUCKET}/kube-1/worker/good.userdata: no policy of arn:aws:iam::${MOTO_ACCOUNT}:role/no-read allows it (it has no policies)`,
    );
    expect(reason('other-key')).toMatch(
      /^FilesBundleUnavailable: files bundle \S+other-key\.userdata: cannot decrypt \/etc\/secret\.enc: AccessDenied: kms:Decrypt on arn:aws:kms:\S+: the key policy of \S+ (delegates to IAM, and no policy of \S+role\/reader allows it|grants neither \S+role\/reader nor its account)$/,
    );
    expect([...joiner.boots.values()].filter((b) => b.ok)).toEqual([
      { ok: true, bundles: [`s3://${BUCKET}/kube-1/worker/good.userdata`], files: 2, decrypted: 1 },
    ]);
  });
});
