// The `roleArn` option of CloudFormationStackDeployer: same-account mode passes the CloudFormation service role on
// every call that creates, updates or deletes a stack (CLM_STACK_ROLE_ARN, wired in lambdas/adapters/wiring).
import {
  CloudFormationClient,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  UpdateStackCommand,
  UpdateTerminationProtectionCommand,
} from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import { CloudFormationStackDeployer } from '../../../lambdas/adapters/aws/cloudformation-stack-deployer';
import { sdkError } from './sdk-errors';

const cfn = mockClient(CloudFormationClient);
const ROLE = 'arn:aws:iam::123456789012:role/ClmWorkflow-ClusterAccessStackRole-1A2B3C';
const STACK_ID = 'arn:aws:cloudformation:eu-central-1:123456789012:stack/kube-1/0a1b';
const spec = { name: 'kube-1', templateBody: '{"Resources":{}}', tags: { application: 'kubernetes' } };
const existing = {
  Stacks: [
    {
      StackName: 'kube-1',
      StackId: STACK_ID,
      StackStatus: 'UPDATE_COMPLETE' as const,
      CreationTime: new Date(0),
      EnableTerminationProtection: true,
    },
  ],
};

function deployer(roleArn?: string) {
  return new CloudFormationStackDeployer(new CloudFormationClient({ region: 'eu-central-1' }), {
    sleep: async () => undefined,
    ...(roleArn ? { roleArn } : {}),
  });
}

/** RoleARN of every call of `command` the mock received. */
function rolesOf(
  command: typeof CreateStackCommand | typeof UpdateStackCommand | typeof DeleteStackCommand,
): unknown[] {
  return cfn.commandCalls(command).map((call) => (call.args[0].input as { RoleARN?: string }).RoleARN);
}

beforeEach(() => cfn.reset());

describe('CloudFormationStackDeployer with a service role', () => {
  it('passes RoleARN when it creates a stack', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).rejects(sdkError('ValidationError', 'Stack with id kube-1 does not exist'));
    cfn.on(CreateStackCommand).resolves({ StackId: STACK_ID });

    // Act
    await deployer(ROLE).deploy(spec);

    // Assert
    expect(rolesOf(CreateStackCommand)).toEqual([ROLE]);
  });

  it('passes RoleARN when it updates a stack', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves(existing);
    cfn.on(UpdateStackCommand).resolves({ StackId: STACK_ID });

    // Act
    await deployer(ROLE).deploy(spec);

    // Assert
    expect(rolesOf(UpdateStackCommand)).toEqual([ROLE]);
  });

  it('passes RoleARN on both DeleteStack calls when termination protection had to be lifted first', async () => {
    // Arrange: DescribeStacks does not report the flag (it was enabled meanwhile)
    cfn
      .on(DescribeStacksCommand)
      .resolves({ Stacks: [{ ...existing.Stacks![0], EnableTerminationProtection: undefined }] });
    cfn
      .on(DeleteStackCommand)
      .rejectsOnce(
        sdkError('ValidationError', 'Stack [kube-1] cannot be deleted while TerminationProtection is enabled'),
      )
      .resolves({});
    cfn.on(UpdateTerminationProtectionCommand).resolves({ StackId: STACK_ID });

    // Act
    const result = await deployer(ROLE).delete('kube-1', { disableTerminationProtection: true });

    // Assert
    expect(result).toEqual({ result: 'STARTED' });
    expect(rolesOf(DeleteStackCommand)).toEqual([ROLE, ROLE]);
  });

  it('sends no RoleARN at all without the option (cross-account mode)', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolvesOnce({}).resolves(existing);
    cfn.on(CreateStackCommand).resolves({ StackId: STACK_ID });
    cfn.on(UpdateStackCommand).resolves({ StackId: STACK_ID });
    cfn.on(DeleteStackCommand).resolves({});
    const plain = deployer();

    // Act
    await plain.deploy(spec);
    await plain.deploy(spec);
    await plain.delete('kube-1', { disableTerminationProtection: true });

    // Assert
    expect(cfn.calls().map((call) => Object.keys(call.args[0].input as object).includes('RoleARN'))).not.toContain(
      true,
    );
    expect([
      cfn.commandCalls(CreateStackCommand).length,
      cfn.commandCalls(UpdateStackCommand).length,
      cfn.commandCalls(DeleteStackCommand).length,
    ]).toEqual([1, 1, 1]);
  });
});
