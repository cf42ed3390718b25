// CloudFormationStackDeployer.plan through change sets: CREATE or UPDATE, polling, paging, cleanup.
import {
  CreateChangeSetCommand,
  DeleteChangeSetCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import 'aws-sdk-client-mock-jest';
import { ConfigError, TransientApiError } from '../../../lambdas/shared/errors';
import { cfn, deployer, missing, spec, stack, STACK_ID } from './cloudformation-deployer-fixtures';

beforeEach(() => cfn.reset());

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
