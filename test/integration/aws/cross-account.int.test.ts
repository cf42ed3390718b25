// The cross-account path against moto: CLM runs in account 123456789012; the cluster kube-prod lives in
// 210987654321 / eu-west-1, kube-test in CLM's own account / eu-central-1 (as in examples/clusters.yaml). Account
// 210987654321 gets the synthesized ClmClusterAccess stack (deployed through CloudFormation by its administrator);
// CLM's adapters then assume its role with the ExternalId, verify the account, and act in each (account, region):
// stacks, node pools and an EKS token, each landing where it belongs and nowhere else.
// moto does not evaluate IAM policies or trust conditions: what is checked here is what CLM sends and where it acts;
// the policies themselves are checked in test/infra (CDK assertions, cdk-nag, cfn-lint, checkov).
import { App, BootstraplessSynthesizer } from 'aws-cdk-lib';
import { CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DescribeSubnetsCommand } from '@aws-sdk/client-ec2';
import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { ClmClusterAccessStack } from '../../../infra/stacks/clm-cluster-access-stack';
import { createAccountClients, roleArn } from '../../../lambdas/adapters/aws/aws-clients';
import type { AwsClients } from '../../../lambdas/adapters/aws/aws-clients';
import { AsgNodePoolBackend } from '../../../lambdas/adapters/aws/asg-node-pool-backend';
import { CloudFormationStackDeployer } from '../../../lambdas/adapters/aws/cloudformation-stack-deployer';
import { EKS_TOKEN_PREFIX, eksToken } from '../../../lambdas/adapters/kube/eks-token';
import { nodePoolStackName, nodePoolStackTags } from '../../../lambdas/core/cloudformation/stack-names';
import type { ClusterRef } from '../../../lambdas/ports/node-pool-backend';
import { MOTO_ACCOUNT, MOTO_CREDENTIALS, motoEndpoint, resetMoto } from '../support/environment';

const endpoint = motoEndpoint();
const CLUSTER_ACCOUNT = '210987654321';
const EXTERNAL_ID = 'clm-int-7f3a';
const ROLE = 'cluster-lifecycle-manager';
const PROD = {
  id: `aws:${CLUSTER_ACCOUNT}:eu-west-1:kube-prod`,
  alias: 'kube-prod',
  provider: 'zalando-aws' as const,
  region: 'eu-west-1',
};
const TEST = { id: `aws:${MOTO_ACCOUNT}:eu-central-1:kube-test`, region: 'eu-central-1' };
const POOL = { name: 'default-worker', profile: 'worker-default' };

/** CLM's clients for a cluster: its own account as is, another through the access role with the ExternalId. */
const clmClients = (accountId: string, region: string): AwsClients =>
  createAccountClients({
    accountId,
    region,
    endpoint,
    credentials: MOTO_CREDENTIALS,
    ...(accountId === MOTO_ACCOUNT ? {} : { assumedRole: ROLE, externalId: EXTERNAL_ID }),
  });
/** The cluster account's administrator (not CLM): sets up ClmClusterAccess and looks at what CLM did. */
const adminClients = (accountId: string, region: string): AwsClients =>
  createAccountClients({
    accountId,
    region,
    endpoint,
    credentials: MOTO_CREDENTIALS,
    ...(accountId === MOTO_ACCOUNT ? {} : { assumedRole: 'OrganizationAccountAccessRole' }),
  });

async function motoState(): Promise<{ sts: { AssumedRole?: Record<string, string>[] } }> {
  return (await fetch(`${endpoint}/moto-api/data.json`)).json() as never;
}

async function stackNames(cloudFormation: CloudFormationClient): Promise<string[]> {
  return ((await cloudFormation.send(new DescribeStacksCommand({}))).Stacks ?? [])
    .filter((s) => s.StackStatus !== 'DELETE_COMPLETE')
    .map((s) => s.StackName ?? '')
    .sort();
}

function poolTemplate(subnet: string): string {
  return JSON.stringify({
    Resources: {
      LaunchTemplate: {
        Type: 'AWS::EC2::LaunchTemplate',
        Properties: { LaunchTemplateData: { ImageId: 'ami-12c6146b', InstanceType: 't3.small' } },
      },
      AutoScalingGroup: {
        Type: 'AWS::AutoScaling::AutoScalingGroup',
        Properties: {
          MinSize: '2',
          MaxSize: '4',
          DesiredCapacity: '2',
          VPCZoneIdentifier: [subnet],
          LaunchTemplate: {
            LaunchTemplateId: { Ref: 'LaunchTemplate' },
            Version: { 'Fn::GetAtt': ['LaunchTemplate', 'LatestVersionNumber'] },
          },
          Tags: Object.entries(nodePoolStackTags(PROD, POOL)).map(([Key, Value]) => ({
            Key,
            Value,
            PropagateAtLaunch: true,
          })),
        },
      },
    },
  });
}

beforeAll(async () => {
  await resetMoto(endpoint);
  const app = new App();
  new ClmClusterAccessStack(app, 'ClmClusterAccess', {
    clmAccountId: MOTO_ACCOUNT,
    externalId: EXTERNAL_ID,
    synthesizer: new BootstraplessSynthesizer(), // moto has no CDK bootstrap parameter to check
  });
  const template = JSON.stringify(app.synth().getStackByName('ClmClusterAccess').template);
  await adminClients(CLUSTER_ACCOUNT, 'eu-west-1').cloudFormation.send(
    new CreateStackCommand({
      StackName: 'ClmClusterAccess',
      TemplateBody: template,
      Capabilities: ['CAPABILITY_NAMED_IAM'],
    }),
  );
});

describe('cross-account access on moto (two accounts, two regions)', () => {
  it('deploys ClmClusterAccess into the cluster account: the access role, the bounded stack role', async () => {
    const stack = (
      await adminClients(CLUSTER_ACCOUNT, 'eu-west-1').cloudFormation.send(
        new DescribeStacksCommand({ StackName: 'ClmClusterAccess' }),
      )
    ).Stacks![0]!;
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    expect(Object.fromEntries((stack.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]))).toMatchObject({
      AccessRoleArn: roleArn(CLUSTER_ACCOUNT, ROLE),
      StackRoleArn: roleArn(CLUSTER_ACCOUNT, `${ROLE}-stacks`),
    });
  });

  it('assumes the role in the cluster account with the ExternalId, and checks the account before acting', async () => {
    const prod = clmClients(CLUSTER_ACCOUNT, 'eu-west-1');
    const identity = await prod.sts.send(new GetCallerIdentityCommand({}));

    expect(identity.Account).toBe(CLUSTER_ACCOUNT);
    expect(identity.Arn).toBe(`arn:aws:sts::${CLUSTER_ACCOUNT}:assumed-role/${ROLE}/cluster-lifecycle-manager`);
    const assumed = (await motoState()).sts.AssumedRole ?? [];
    expect(assumed.filter((r) => r.role_arn === roleArn(CLUSTER_ACCOUNT, ROLE)).map((r) => r.external_id)).toEqual([
      EXTERNAL_ID,
    ]);
    // Credentials of the wrong account are refused before any call acts (CLM §6.2.1).
    const wrong = createAccountClients({
      accountId: CLUSTER_ACCOUNT,
      region: 'eu-west-1',
      endpoint,
      credentials: MOTO_CREDENTIALS,
    });
    await expect(wrong.cloudFormation.send(new DescribeStacksCommand({}))).rejects.toThrow(
      `invalid AWS account: expected ${CLUSTER_ACCOUNT}, the credentials belong to ${MOTO_ACCOUNT}`,
    );
  });

  it('deploys each cluster’s stacks in its own account and region, through the cluster account’s stack role', async () => {
    const prodRegion = clmClients(CLUSTER_ACCOUNT, 'eu-west-1');
    const subnet = (await prodRegion.ec2.send(new DescribeSubnetsCommand({}))).Subnets![0]!.SubnetId!;
    const prodStacks = new CloudFormationStackDeployer(prodRegion.cloudFormation, {
      roleArn: roleArn(CLUSTER_ACCOUNT, `${ROLE}-stacks`),
    });
    const testStacks = new CloudFormationStackDeployer(clmClients(MOTO_ACCOUNT, TEST.region).cloudFormation);
    const prodPool = nodePoolStackName(PROD, POOL.name);

    await prodStacks.deploy({
      name: prodPool,
      templateBody: poolTemplate(subnet),
      tags: nodePoolStackTags(PROD, POOL),
    });
    await testStacks.deploy({
      name: 'kube-test',
      templateBody: JSON.stringify({ Resources: { Topic: { Type: 'AWS::SNS::Topic' } } }),
      tags: { [`kubernetes.io/cluster/${TEST.id}`]: 'owned' },
    });

    expect(await stackNames(adminClients(CLUSTER_ACCOUNT, 'eu-west-1').cloudFormation)).toEqual([
      'ClmClusterAccess',
      prodPool,
    ]);
    expect(await stackNames(adminClients(CLUSTER_ACCOUNT, 'eu-central-1').cloudFormation)).toEqual([]);
    expect(await stackNames(adminClients(MOTO_ACCOUNT, 'eu-central-1').cloudFormation)).toEqual(['kube-test']);
    expect(await stackNames(adminClients(MOTO_ACCOUNT, 'eu-west-1').cloudFormation)).toEqual([]);
    const deployed = (
      await adminClients(CLUSTER_ACCOUNT, 'eu-west-1').cloudFormation.send(
        new DescribeStacksCommand({ StackName: prodPool }),
      )
    ).Stacks![0]!;
    expect(deployed.RoleARN).toBe(roleArn(CLUSTER_ACCOUNT, `${ROLE}-stacks`));
  });

  it('finds the node pool only through the clients of its account and region', async () => {
    const cluster: ClusterRef = {
      id: PROD.id,
      name: PROD.id,
      region: PROD.region,
      infrastructureAccount: `aws:${CLUSTER_ACCOUNT}`,
    };
    const own = clmClients(CLUSTER_ACCOUNT, 'eu-west-1');
    const elsewhere = clmClients(MOTO_ACCOUNT, 'eu-west-1');

    const pool = await new AsgNodePoolBackend(own.autoScaling, own.ec2).getPool(cluster, POOL.name);

    expect(pool?.instances).toHaveLength(2);
    expect(
      await new AsgNodePoolBackend(elsewhere.autoScaling, elsewhere.ec2).getPool(cluster, POOL.name),
    ).toBeUndefined();
  });

  it('signs the EKS token of a cluster in another account with the role assumed there', async () => {
    const prod = clmClients(CLUSTER_ACCOUNT, 'eu-west-1');
    await prod.sts.send(new GetCallerIdentityCommand({}));

    const token = await eksToken(prod.sts, PROD.alias);

    const url = new URL(Buffer.from(token.slice(EKS_TOKEN_PREFIX.length), 'base64url').toString());
    const assumed = ((await motoState()).sts.AssumedRole ?? []).filter((r) => r.account_id === CLUSTER_ACCOUNT);
    const [keyId, , region, service] = url.searchParams.get('X-Amz-Credential')!.split('/');
    expect(assumed.map((r) => r.access_key_id)).toContain(keyId);
    expect([region, service]).toEqual(['eu-west-1', 'sts']);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host;x-k8s-aws-id');
  });
});
