import {
  CloudFormationClient,
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteChangeSetCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
  DescribeStacksCommand,
  UpdateStackCommand,
  UpdateTerminationProtectionCommand,
} from '@aws-sdk/client-cloudformation';
import type { Stack } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import { CloudFormationStackDeployer } from '../../../lambdas/adapters/aws/cloudformation-stack-deployer';
import { MAX_INLINE_TEMPLATE_BYTES } from '../../../lambdas/adapters/aws/cloudformation-template-source';
import type { ArtifactStore } from '../../../lambdas/ports/artifact-store';
import {
  ClmError,
  ConfigError,
  StackBusyError,
  StackFailedError,
  ThrottledError,
  TransientApiError,
} from '../../../lambdas/shared/errors';
import { networkError, sdkError } from './sdk-errors';

const cfn = mockClient(CloudFormationClient);
const STACK_ID = 'arn:aws:cloudformation:eu-central-1:123456789012:stack/kube-1/0a1b';
const spec = {
  name: 'kube-1',
  templateBody: '{"Resources":{}}',
  tags: { 'kubernetes.io/cluster/aws:123:eu-central-1:kube-1': 'owned', application: 'kubernetes' },
};

function stack(overrides: Partial<Stack> = {}): Stack {
  return {
    StackName: 'kube-1',
    StackId: STACK_ID,
    StackStatus: 'UPDATE_COMPLETE',
    CreationTime: new Date('2026-01-01T00:00:00Z'),
    EnableTerminationProtection: true,
    ...overrides,
  };
}

const missing = () => sdkError('ValidationError', 'Stack with id kube-1 does not exist');

function deployer(options: ConstructorParameters<typeof CloudFormationStackDeployer>[1] = {}) {
  return new CloudFormationStackDeployer(new CloudFormationClient({ region: 'eu-central-1' }), {
    sleep: async () => undefined,
    ...options,
  });
}

beforeEach(() => cfn.reset());

describe('CloudFormationStackDeployer.deploy', () => {
  it('creates a missing stack with OnFailure=DELETE, IAM capabilities, termination protection and sorted tags', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).rejects(missing());
    cfn.on(CreateStackCommand).resolves({ StackId: STACK_ID });

    // Act
    const result = await deployer().deploy(spec);

    // Assert
    expect(result).toEqual({ result: 'STARTED' });
    expect(cfn).toHaveReceivedCommandTimes(CreateStackCommand, 1);
    expect(cfn).toHaveReceivedCommandWith(CreateStackCommand, {
      StackName: 'kube-1',
      OnFailure: 'DELETE',
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

  it('updates an existing protected stack with one UpdateStack and no termination-protection call', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack()] });
    cfn.on(UpdateStackCommand).resolves({ StackId: STACK_ID });

    // Act
    const result = await deployer().deploy({ ...spec, stackPolicyBody: '{"Statement":[]}' });

    // Assert
    expect(result).toEqual({ result: 'STARTED' });
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

  it('uploads templates over 51,200 bytes and passes a TemplateURL', async () => {
    // Arrange
    const put = jest.fn(async () => undefined);
    const store: ArtifactStore = {
      put,
      get: async () => undefined,
      urlFor: (key) => `https://bucket.s3.eu-central-1.amazonaws.com/${key}`,
    };
    const big = { ...spec, templateBody: `{"Description":"${'x'.repeat(MAX_INLINE_TEMPLATE_BYTES)}"}` };
    cfn.on(DescribeStacksCommand).rejects(missing());
    cfn.on(CreateStackCommand).resolves({});

    // Act
    await deployer({ templateStore: store }).deploy(big);

    // Assert
    expect(put).toHaveBeenCalledTimes(1);
    const [[key]] = put.mock.calls as unknown as [[string, string]];
    expect(key).toMatch(/^templates\/kube-1\/[0-9a-f]{64}\.template$/);
    expect(cfn).toHaveReceivedCommandWith(CreateStackCommand, {
      TemplateURL: `https://bucket.s3.eu-central-1.amazonaws.com/${key}`,
    });
    expect(cfn.commandCalls(CreateStackCommand)[0].args[0].input.TemplateBody).toBeUndefined();
  });

  it('fails with a ConfigError naming the size when a big template has nowhere to go', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).rejects(missing());
    const big = { ...spec, templateBody: 'x'.repeat(MAX_INLINE_TEMPLATE_BYTES + 1) };

    // Act / Assert
    await expect(deployer().deploy(big)).rejects.toThrow(
      new ConfigError(
        `The template of stack kube-1 is 51201 bytes, over CloudFormation's 51200-byte limit for inline templates, and no template bucket is configured`,
      ),
    );
    expect(cfn).toHaveReceivedCommandTimes(CreateStackCommand, 0);
  });
});

describe('CloudFormationStackDeployer.describe', () => {
  it('returns undefined for a stack CloudFormation does not know', async () => {
    cfn.on(DescribeStacksCommand).rejects(missing());
    await expect(deployer().describe('kube-1')).resolves.toBeUndefined();
  });

  it('maps status, reason, outputs, tags and the last update time', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({
      Stacks: [
        stack({
          StackStatus: 'UPDATE_ROLLBACK_COMPLETE',
          StackStatusReason: 'Resource failed',
          LastUpdatedTime: new Date('2026-02-03T04:05:06Z'),
          Outputs: [{ OutputKey: 'WorkerFilesEncryptionKey', OutputValue: 'arn:aws:kms:key/1' }],
          Tags: [{ Key: 'application', Value: 'kubernetes' }],
        }),
      ],
    });

    // Act
    const state = await deployer().describe('kube-1');

    // Assert
    expect(state).toEqual({
      name: 'kube-1',
      status: 'UPDATE_ROLLBACK_COMPLETE',
      reason: 'Resource failed',
      outputs: { WorkerFilesEncryptionKey: 'arn:aws:kms:key/1' },
      tags: { application: 'kubernetes' },
      lastUpdatedTime: '2026-02-03T04:05:06.000Z',
    });
  });
});

describe('CloudFormationStackDeployer.delete', () => {
  it('reports a missing stack as ALREADY_GONE without deleting', async () => {
    cfn.on(DescribeStacksCommand).rejects(missing());
    await expect(deployer().delete('kube-1')).resolves.toEqual({ result: 'ALREADY_GONE' });
    expect(cfn).toHaveReceivedCommandTimes(DeleteStackCommand, 0);
  });

  it('does not call DeleteStack again for a stack already being deleted', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ StackStatus: 'DELETE_IN_PROGRESS' })] });
    await expect(deployer().delete('kube-1')).resolves.toEqual({ result: 'STARTED' });
    expect(cfn).toHaveReceivedCommandTimes(DeleteStackCommand, 0);
  });

  it('deletes an unprotected stack by its id with one call', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ EnableTerminationProtection: false })] });
    cfn.on(DeleteStackCommand).resolves({});
    await expect(deployer().delete('kube-1')).resolves.toEqual({ result: 'STARTED' });
    expect(cfn).toHaveReceivedCommandWith(DeleteStackCommand, { StackName: STACK_ID });
    expect(cfn).toHaveReceivedCommandTimes(DeleteStackCommand, 1);
    expect(cfn).toHaveReceivedCommandTimes(UpdateTerminationProtectionCommand, 0);
  });

  it('lifts termination protection when CloudFormation refuses because of it, then deletes', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack()] });
    cfn
      .on(DeleteStackCommand)
      .rejectsOnce(
        sdkError('ValidationError', 'Stack [kube-1] cannot be deleted while TerminationProtection is enabled'),
      )
      .resolves({});
    cfn.on(UpdateTerminationProtectionCommand).resolves({});

    // Act
    const result = await deployer().delete('kube-1');

    // Assert
    expect(result).toEqual({ result: 'STARTED' });
    expect(cfn).toHaveReceivedCommandWith(UpdateTerminationProtectionCommand, {
      StackName: STACK_ID,
      EnableTerminationProtection: false,
    });
    expect(cfn).toHaveReceivedCommandTimes(DeleteStackCommand, 2);
  });

  it('reports a stack that vanished between describe and delete as ALREADY_GONE', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack()] });
    cfn.on(DeleteStackCommand).rejects(sdkError('ValidationError', `Stack with id ${STACK_ID} does not exist`));
    await expect(deployer().delete('kube-1')).resolves.toEqual({ result: 'ALREADY_GONE' });
  });
});

describe('CloudFormationStackDeployer.list', () => {
  it('pages through DescribeStacks and keeps stacks carrying every tag (* = any value)', async () => {
    // Arrange
    const tagged = (name: string, tags: Record<string, string>, status = 'CREATE_COMPLETE'): Stack =>
      stack({
        StackName: name,
        StackStatus: status as Stack['StackStatus'],
        Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
      });
    cfn
      .on(DescribeStacksCommand)
      .resolvesOnce({
        Stacks: [
          tagged('nodepool-a', { 'kubernetes.io/cluster/c1': 'owned', 'kubernetes.io/node-pool': 'a' }),
          tagged('other-cluster', { 'kubernetes.io/cluster/c2': 'owned', 'kubernetes.io/node-pool': 'x' }),
        ],
        NextToken: 'page-2',
      })
      .resolvesOnce({
        Stacks: [
          tagged('nodepool-b', { 'kubernetes.io/cluster/c1': 'owned', 'kubernetes.io/node-pool': 'b' }),
          tagged('main', { 'kubernetes.io/cluster/c1': 'owned' }),
          tagged('gone', { 'kubernetes.io/cluster/c1': 'owned', 'kubernetes.io/node-pool': 'z' }, 'DELETE_COMPLETE'),
        ],
      });

    // Act
    const stacks = await deployer().list({ 'kubernetes.io/cluster/c1': 'owned', 'kubernetes.io/node-pool': '*' });

    // Assert
    expect(stacks.map((s) => s.name)).toEqual(['nodepool-a', 'nodepool-b']);
    expect(cfn).toHaveReceivedCommandTimes(DescribeStacksCommand, 2);
    expect(cfn).toHaveReceivedNthCommandWith(2, DescribeStacksCommand, { NextToken: 'page-2' });
  });
});

describe('CloudFormationStackDeployer.plan', () => {
  it('plans a new stack with a CREATE change set, polls until complete, pages the changes and deletes the review stack', async () => {
    // Arrange
    const sleeps: number[] = [];
    cfn.on(DescribeStacksCommand).rejects(missing());
    cfn.on(CreateChangeSetCommand).resolves({ Id: 'cs-arn', StackId: STACK_ID });
    cfn
      .on(DescribeChangeSetCommand)
      .resolvesOnce({ Status: 'CREATE_PENDING' })
      .resolvesOnce({ Status: 'CREATE_IN_PROGRESS' })
      .resolvesOnce({
        Status: 'CREATE_COMPLETE',
        Changes: [
          {
            Type: 'Resource',
            ResourceChange: { Action: 'Add', LogicalResourceId: 'Topic', ResourceType: 'AWS::SNS::Topic' },
          },
        ],
        NextToken: 't2',
      })
      .resolvesOnce({
        Status: 'CREATE_COMPLETE',
        Changes: [
          {
            Type: 'Resource',
            ResourceChange: { Action: 'Add', LogicalResourceId: 'Role', ResourceType: 'AWS::IAM::Role' },
          },
        ],
      });
    cfn.on(DeleteStackCommand).resolves({});

    // Act
    const plan = await deployer({ changeSetPollIntervalMs: 7, sleep: async (ms) => void sleeps.push(ms) }).plan(spec);

    // Assert
    expect(plan).toEqual({
      exists: false,
      changes: [
        { action: 'Add', logicalId: 'Topic', resourceType: 'AWS::SNS::Topic' },
        { action: 'Add', logicalId: 'Role', resourceType: 'AWS::IAM::Role' },
      ],
    });
    expect(cfn).toHaveReceivedCommandWith(CreateChangeSetCommand, {
      StackName: 'kube-1',
      ChangeSetType: 'CREATE',
      Capabilities: ['CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'],
    });
    expect(sleeps).toEqual([7, 7]);
    expect(cfn).toHaveReceivedNthSpecificCommandWith(4, DescribeChangeSetCommand, {
      ChangeSetName: 'cs-arn',
      NextToken: 't2',
    });
    expect(cfn).toHaveReceivedCommandWith(DeleteStackCommand, { StackName: STACK_ID });
    expect(cfn).toHaveReceivedCommandTimes(DeleteChangeSetCommand, 0);
  });

  it('plans an existing stack with an UPDATE change set and reports "didn\'t contain changes" as no changes', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack()] });
    cfn.on(CreateChangeSetCommand).resolves({ Id: 'cs-arn', StackId: STACK_ID });
    cfn.on(DescribeChangeSetCommand).resolves({
      Status: 'FAILED',
      StatusReason:
        "The submitted information didn't contain changes. Submit different information to create a change set.",
    });
    cfn.on(DeleteChangeSetCommand).resolves({});

    // Act
    const plan = await deployer().plan(spec);

    // Assert
    expect(plan).toEqual({ exists: true, changes: [] });
    expect(cfn).toHaveReceivedCommandWith(CreateChangeSetCommand, { ChangeSetType: 'UPDATE' });
    expect(cfn).toHaveReceivedCommandWith(DeleteChangeSetCommand, { ChangeSetName: 'cs-arn' });
    expect(cfn).toHaveReceivedCommandTimes(DeleteStackCommand, 0);
  });

  it('fails with a ConfigError on a broken template and still deletes the change set', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack()] });
    cfn.on(CreateChangeSetCommand).resolves({ Id: 'cs-arn' });
    cfn
      .on(DescribeChangeSetCommand)
      .resolves({ Status: 'FAILED', StatusReason: 'Template format error: Unresolved resource dependencies [X]' });
    cfn.on(DeleteChangeSetCommand).resolves({});

    // Act
    const act = deployer().plan(spec);

    // Assert
    await expect(act).rejects.toThrow(/cannot plan stack kube-1: Template format error/);
    await expect(act).rejects.toBeInstanceOf(ConfigError);
    expect(cfn).toHaveReceivedCommandTimes(DeleteChangeSetCommand, 1);
  });

  it('gives up with a retryable error when the change set never settles', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack()] });
    cfn.on(CreateChangeSetCommand).resolves({ Id: 'cs-arn' });
    cfn.on(DescribeChangeSetCommand).resolves({
      Status: 'CREATE_IN_PROGRESS',
      Changes: [
        {
          Type: 'Resource',
          ResourceChange: { Action: 'Modify', LogicalResourceId: 'A', ResourceType: 'T', Replacement: 'True' },
        },
      ],
    });
    cfn.on(DeleteChangeSetCommand).resolves({});

    // Act
    const act = deployer({ changeSetMaxPolls: 3 }).plan(spec);

    // Assert
    await expect(act).rejects.toThrow(TransientApiError);
    expect(cfn).toHaveReceivedCommandTimes(DescribeChangeSetCommand, 3);
    expect(cfn).toHaveReceivedCommandTimes(DeleteChangeSetCommand, 1);
  });

  it('keeps the replacement flag of a change', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack()] });
    cfn.on(CreateChangeSetCommand).resolves({ Id: 'cs-arn' });
    cfn.on(DescribeChangeSetCommand).resolves({
      Status: 'CREATE_COMPLETE',
      Changes: [
        {
          Type: 'Resource',
          ResourceChange: {
            Action: 'Modify',
            LogicalResourceId: 'LaunchTemplate',
            ResourceType: 'AWS::EC2::LaunchTemplate',
            Replacement: 'Conditional',
          },
        },
      ],
    });
    cfn.on(DeleteChangeSetCommand).resolves({});

    // Act
    const plan = await deployer().plan(spec);

    // Assert
    expect(plan.changes).toEqual([
      {
        action: 'Modify',
        logicalId: 'LaunchTemplate',
        resourceType: 'AWS::EC2::LaunchTemplate',
        replacement: 'Conditional',
      },
    ]);
  });
});
