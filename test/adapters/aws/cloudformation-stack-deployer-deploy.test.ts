// CloudFormationStackDeployer.deploy: create or update, termination protection, busy and failed stacks.
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  UpdateStackCommand,
  UpdateTerminationProtectionCommand,
} from '@aws-sdk/client-cloudformation';
import 'aws-sdk-client-mock-jest';
import {
  ClmError,
  StackBusyError,
  StackFailedError,
  StackRecoveryNeededError,
  ThrottledError,
  TransientApiError,
} from '../../../lambdas/shared/errors';
import { networkError, sdkError } from './sdk-errors';
import { cfn, deployer, missing, spec, stack, STACK_ID } from './cloudformation-deployer-fixtures';

beforeEach(() => cfn.reset());

describe('CloudFormationStackDeployer.deploy', () => {
  it('creates a missing stack with OnFailure=ROLLBACK (a failed create keeps its events), IAM capabilities, termination protection and sorted tags', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).rejects(missing());
    cfn.on(CreateStackCommand).resolves({ StackId: STACK_ID });

    // Act
    const result = await deployer().deploy(spec);

    // Assert
    expect(result).toEqual({ result: 'STARTED', operation: 'create' });
    expect(cfn).toHaveReceivedCommandTimes(CreateStackCommand, 1);
    expect(cfn).toHaveReceivedCommandWith(CreateStackCommand, {
      StackName: 'kube-1',
      OnFailure: 'ROLLBACK',
      Capabilities: ['CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'],
      EnableTerminationProtection: true,
      TemplateBody: spec.templateBody,
      Tags: [
        { Key: 'application', Value: 'kubernetes' },
        { Key: 'kubernetes.io/cluster/aws:123:eu-central-1:kube-1', Value: 'owned' },
      ],
    });
    expect(cfn).toHaveReceivedCommandTimes(UpdateStackCommand, 0);
  });

  it.each(['UPDATE_ROLLBACK_FAILED', 'ROLLBACK_COMPLETE'])(
    'refuses to update a stack in %s with StackRecoveryNeededError, calling nothing',
    async (status) => {
      cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ StackStatus: status as never })] });

      await expect(deployer().deploy(spec)).rejects.toBeInstanceOf(StackRecoveryNeededError);
      expect(cfn).toHaveReceivedCommandTimes(UpdateStackCommand, 0);
      expect(cfn).toHaveReceivedCommandTimes(UpdateTerminationProtectionCommand, 0);
    },
  );

  it('re-enables termination protection on an update when it was turned off', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ EnableTerminationProtection: false })] });
    cfn.on(UpdateTerminationProtectionCommand).resolves({});
    cfn.on(UpdateStackCommand).resolves({ StackId: STACK_ID });

    await deployer().deploy(spec);

    expect(cfn).toHaveReceivedCommandWith(UpdateTerminationProtectionCommand, {
      StackName: 'kube-1',
      EnableTerminationProtection: true,
    });
  });

  it('updates an existing protected stack with one UpdateStack and no termination-protection call', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack()] });
    cfn.on(UpdateStackCommand).resolves({ StackId: STACK_ID });

    // Act
    const result = await deployer().deploy({ ...spec, stackPolicyBody: '{"Statement":[]}' });

    // Assert
    expect(result).toEqual({ result: 'STARTED', operation: 'update' });
    expect(cfn).toHaveReceivedCommandWith(UpdateStackCommand, {
      StackName: 'kube-1',
      TemplateBody: spec.templateBody,
      Capabilities: ['CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'],
      StackPolicyDuringUpdateBody: '{"Statement":[]}',
    });
    expect(cfn).toHaveReceivedCommandTimes(UpdateTerminationProtectionCommand, 0);
    expect(cfn.calls()).toHaveLength(2);
  });

  it('re-enables termination protection before updating a stack that lost it', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ EnableTerminationProtection: false })] });
    cfn.on(UpdateTerminationProtectionCommand).resolves({});
    cfn.on(UpdateStackCommand).resolves({});

    // Act
    await deployer().deploy(spec);

    // Assert
    expect(cfn).toHaveReceivedNthCommandWith(2, UpdateTerminationProtectionCommand, {
      StackName: 'kube-1',
      EnableTerminationProtection: true,
    });
    expect(cfn).toHaveReceivedNthSpecificCommandWith(1, UpdateStackCommand, { StackName: 'kube-1' });
  });

  it('reports "No updates are to be performed." as NO_CHANGES', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack()] });
    cfn.on(UpdateStackCommand).rejects(sdkError('ValidationError', 'No updates are to be performed.'));

    // Act
    const result = await deployer().deploy(spec);

    // Assert
    expect(result).toEqual({ result: 'NO_CHANGES' });
  });

  it('refuses a stack that is still in progress without calling UpdateStack', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ StackStatus: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS' })] });

    // Act
    const act = deployer().deploy(spec);

    // Assert
    await expect(act).rejects.toThrow(StackBusyError);
    expect(cfn).toHaveReceivedCommandTimes(UpdateStackCommand, 0);
  });

  it('turns "is in UPDATE_IN_PROGRESS state" from UpdateStack into StackBusyError and keeps the cause', async () => {
    // Arrange
    const refusal = sdkError(
      'ValidationError',
      `Stack:${STACK_ID} is in UPDATE_IN_PROGRESS state and can not be updated.`,
    );
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack()] });
    cfn.on(UpdateStackCommand).rejects(refusal);

    // Act
    const error = await deployer()
      .deploy(spec)
      .catch((e: unknown) => e);

    // Assert
    expect(error).toBeInstanceOf(StackBusyError);
    expect((error as StackBusyError).retryable).toBe(true);
    expect((error as Error).cause).toBe(refusal);
    expect((error as Error).message).toContain('UpdateStack kube-1');
  });

  it('reports a stack stuck in ROLLBACK_COMPLETE as StackFailedError', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ StackStatus: 'ROLLBACK_COMPLETE' })] });
    cfn
      .on(UpdateStackCommand)
      .rejects(sdkError('ValidationError', `Stack:${STACK_ID} is in ROLLBACK_COMPLETE state and can not be updated.`));

    // Act
    const error = await deployer()
      .deploy(spec)
      .catch((e: unknown) => e);

    // Assert
    expect(error).toBeInstanceOf(StackFailedError);
    expect(error).toMatchObject({ stackName: 'kube-1', status: 'ROLLBACK_COMPLETE', retryable: false });
  });

  it('treats a create race (AlreadyExistsException) as a busy stack', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).rejects(missing());
    cfn.on(CreateStackCommand).rejects(sdkError('AlreadyExistsException', 'Stack [kube-1] already exists'));

    // Act / Assert
    await expect(deployer().deploy(spec)).rejects.toThrow(StackBusyError);
  });

  it('deletes a REVIEW_IN_PROGRESS leftover of an interrupted plan and asks for a retry', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ StackStatus: 'REVIEW_IN_PROGRESS' })] });
    cfn.on(DeleteStackCommand).resolves({});

    // Act
    const act = deployer().deploy(spec);

    // Assert
    await expect(act).rejects.toThrow(StackBusyError);
    expect(cfn).toHaveReceivedCommandWith(DeleteStackCommand, { StackName: STACK_ID });
    expect(cfn).toHaveReceivedCommandTimes(UpdateStackCommand, 0);
  });

  it.each([
    ['throttling', sdkError('Throttling', 'Rate exceeded'), ThrottledError],
    ['a 5xx answer', sdkError('InternalFailure', 'oops', 500), TransientApiError],
    ['a network error', networkError('ECONNRESET'), TransientApiError],
  ])('classifies %s as retryable', async (_label, raw, expected) => {
    // Arrange
    cfn.on(DescribeStacksCommand).rejects(raw);

    // Act
    const error = await deployer()
      .deploy(spec)
      .catch((e: unknown) => e);

    // Assert
    expect(error).toBeInstanceOf(expected);
    expect((error as ClmError).retryable).toBe(true);
    expect((error as Error).cause).toBe(raw);
  });

  it('classifies access denied as a terminal ClmError that names the call', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).rejects(sdkError('AccessDenied', 'User is not authorized', 403));

    // Act
    const error = await deployer()
      .deploy(spec)
      .catch((e: unknown) => e);

    // Assert
    expect(error).toBeInstanceOf(ClmError);
    expect((error as ClmError).retryable).toBe(false);
    expect((error as Error).message).toMatch(/CloudFormation DescribeStacks kube-1: AccessDenied/);
  });
});
