import { CloudFormationClient, CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { FULL_AWS_KIT } from '../../../lambdas/adapters/aws/full-aws-kit';
import { cloudFactories } from '../../../lambdas/runtime/cloud/cloud-factories';
import { lambdaEnvironment } from '../../../lambdas/runtime/lambda/environment';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { ConfigError } from '../../../lambdas/shared/errors';
import { testCluster } from '../../sim/fixtures';
import { sdkError } from '../../adapters/aws/sdk-errors';

const cfn = mockClient(CloudFormationClient);
const STACK_ROLE = 'arn:aws:iam::123456789012:role/ClmWorkflow-ClusterAccessStackRole-1A2B';
const spec = { name: 'kube-1', templateBody: '{"Resources":{}}', tags: {} };
const other: Cluster = testCluster({ id: 'aws:123456789012:eu-west-1:kube-2', region: 'eu-west-1' });

beforeEach(() => {
  cfn.reset();
  cfn.on(DescribeStacksCommand).rejects(sdkError('ValidationError', 'Stack with id kube-1 does not exist'));
  cfn.on(CreateStackCommand).resolves({ StackId: 'arn:aws:cloudformation:eu-central-1:123456789012:stack/kube-1/1' });
});

describe('cloudFactories', () => {
  it('deploys through the CloudFormation service role of CLM_STACK_ROLE_ARN (same-account mode)', async () => {
    // Arrange
    const stacks = cloudFactories(
      lambdaEnvironment({ AWS_REGION: 'eu-central-1', CLM_STACK_ROLE_ARN: STACK_ROLE }),
      FULL_AWS_KIT,
    ).stacks;

    // Act
    await stacks(testCluster()).deploy(spec);

    // Assert
    expect(cfn.commandCalls(CreateStackCommand).map((call) => call.args[0].input.RoleARN)).toEqual([STACK_ROLE]);
  });

  it('sends no RoleARN without CLM_STACK_ROLE_ARN (the assumed role carries the rights)', async () => {
    // Arrange
    const stacks = cloudFactories(
      lambdaEnvironment({ AWS_REGION: 'eu-central-1', CLM_ASSUMED_ROLE: 'cluster-lifecycle-manager' }),
      FULL_AWS_KIT,
    ).stacks;

    // Act
    await stacks(testCluster()).deploy(spec);

    // Assert
    expect(cfn.commandCalls(CreateStackCommand).map((call) => 'RoleARN' in call.args[0].input)).toEqual([false]);
  });

  it('shares one deployer per account and region', () => {
    // Arrange
    const stacks = cloudFactories(lambdaEnvironment({ AWS_REGION: 'eu-central-1' }), FULL_AWS_KIT).stacks;

    // Act
    const deployers = [
      stacks(testCluster()),
      stacks(testCluster({ id: 'aws:123456789012:eu-central-1:kube-3' })),
      stacks(other),
    ];

    // Assert
    expect([deployers[0] === deployers[1], deployers[0] === deployers[2]]).toEqual([true, false]);
  });

  it('refuses a cluster whose infrastructure_account is not an AWS account, and lookups without one', () => {
    // Arrange
    const aws = cloudFactories(lambdaEnvironment({ AWS_REGION: 'eu-central-1' }), FULL_AWS_KIT);

    // Act
    const stacks = () => aws.stacks(testCluster({ infrastructureAccount: 'gcp:project-1' }));
    const lookups = () => aws.lookupsFor('project-1', 'eu-central-1');

    // Assert
    expect(stacks).toThrow(ConfigError);
    expect(stacks).toThrow('infrastructure_account must look like aws:<12-digit account id>');
    expect(lookups).toThrow('amiID/instanceType lookups need an AWS account id, got "project-1"');
  });
});
