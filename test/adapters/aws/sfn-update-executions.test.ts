import {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  ExecutionNotRedrivable,
  ListExecutionsCommand,
  RedriveExecutionCommand,
  SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import { SfnUpdateExecutions } from '../../../lambdas/adapters/aws/sfn-update-executions';
import { ConfigError, ThrottledError } from '../../../lambdas/shared/errors';
import { sdkError } from './sdk-errors';

const sfn = mockClient(SFNClient);
const client = new SFNClient({ region: 'eu-central-1' });
const MACHINE = 'arn:aws:states:eu-central-1:123456789012:stateMachine:clm-cluster-update';
const arnOf = (name: string) => `arn:aws:states:eu-central-1:123456789012:execution:clm-cluster-update:${name}`;
const request = {
  name: 'update-kube-1-0d1a26e6-0123456789abcdef0123',
  input: { clusterId: 'c1', action: 'provision' },
};

const meta = { $metadata: {} };
const alreadyExists = () => new ExecutionAlreadyExists({ message: 'Execution Already Exists', ...meta });

beforeEach(() => sfn.reset());

function executions(): SfnUpdateExecutions {
  return new SfnUpdateExecutions({ client, stateMachineArn: MACHINE });
}

describe('SfnUpdateExecutions.start', () => {
  it('starts the named execution with the JSON input', async () => {
    sfn.on(StartExecutionCommand).resolves({ executionArn: arnOf(request.name), startDate: new Date() });
    await expect(executions().start(request)).resolves.toEqual({
      how: 'started',
      name: request.name,
      arn: arnOf(request.name),
    });
    expect(sfn).toHaveReceivedCommandWith(StartExecutionCommand, {
      stateMachineArn: MACHINE,
      name: request.name,
      input: '{"clusterId":"c1","action":"provision"}',
    });
  });

  it('treats "already exists" as harmless while that execution runs', async () => {
    sfn.on(StartExecutionCommand).rejects(alreadyExists());
    sfn.on(DescribeExecutionCommand, { executionArn: arnOf(request.name) }).resolves({ status: 'RUNNING' });
    await expect(executions().start(request)).resolves.toEqual({
      how: 'already-running',
      name: request.name,
      arn: arnOf(request.name),
    });
  });

  it('reports a name taken by an ended execution', async () => {
    sfn.on(StartExecutionCommand).rejects(alreadyExists());
    sfn.on(DescribeExecutionCommand).resolves({ status: 'SUCCEEDED', stopDate: new Date(5) });
    await expect(executions().start(request)).resolves.toEqual({ how: 'name-taken', name: request.name });
  });

  it('turns throttling into a retryable error naming the call', async () => {
    sfn.on(StartExecutionCommand).rejects(sdkError('ThrottlingException', 'Rate exceeded'));
    await expect(executions().start(request)).rejects.toThrow(ThrottledError);
    await expect(executions().start(request)).rejects.toThrow(/Step Functions StartExecution update-kube-1/);
  });

  it('refuses a state machine ARN it cannot derive execution ARNs from', () => {
    expect(() => new SfnUpdateExecutions({ client, stateMachineArn: 'clm-cluster-update' })).toThrow(ConfigError);
  });
});

describe('SfnUpdateExecutions.resume', () => {
  const dead = {
    name: 'update-kube-1-0d1a26e6-0123456789abcdef0123',
    arn: arnOf('update-kube-1-0d1a26e6-0123456789abcdef0123'),
  };
  const fallback = { ...request, name: `${request.name}-r2` };

  it('redrives a dead execution', async () => {
    sfn.on(RedriveExecutionCommand).resolves({ redriveDate: new Date() });
    await expect(executions().resume(dead, fallback)).resolves.toEqual({ how: 'redriven', ...dead });
    expect(sfn).toHaveReceivedCommandTimes(StartExecutionCommand, 0);
  });

  it('starts the fallback when the execution cannot be redriven', async () => {
    sfn.on(RedriveExecutionCommand).rejects(new ExecutionNotRedrivable({ message: 'older than 14 days', ...meta }));
    sfn.on(DescribeExecutionCommand).resolves({ status: 'TIMED_OUT' });
    sfn.on(StartExecutionCommand).resolves({ executionArn: arnOf(fallback.name) });
    await expect(executions().resume(dead, fallback)).resolves.toMatchObject({ how: 'started', name: fallback.name });
  });

  it('does not start a second execution when another pass already redrove it', async () => {
    sfn.on(RedriveExecutionCommand).rejects(new ExecutionNotRedrivable({ message: 'is running', ...meta }));
    sfn.on(DescribeExecutionCommand).resolves({ status: 'RUNNING' });
    await expect(executions().resume(dead, fallback)).resolves.toMatchObject({ how: 'already-running' });
    expect(sfn).toHaveReceivedCommandTimes(StartExecutionCommand, 0);
  });

  it('starts the fallback when the execution is gone', async () => {
    sfn.on(RedriveExecutionCommand).rejects(new ExecutionDoesNotExist({ message: 'no such execution', ...meta }));
    sfn.on(StartExecutionCommand).resolves({ executionArn: arnOf(fallback.name) });
    await expect(executions().resume({ name: dead.name }, fallback)).resolves.toMatchObject({ how: 'started' });
    expect(sfn).toHaveReceivedCommandWith(RedriveExecutionCommand, { executionArn: dead.arn });
  });
});

describe('SfnUpdateExecutions.countRunning and describe', () => {
  it('counts running and pending-redrive executions over every page', async () => {
    const page = (n: number) => Array.from({ length: n }, (_, i) => ({ executionArn: arnOf(`e${i}`) }));
    sfn
      .on(ListExecutionsCommand, { statusFilter: 'RUNNING' })
      .resolvesOnce({ executions: page(1000) as never, nextToken: 't1' })
      .resolvesOnce({ executions: page(3) as never });
    sfn.on(ListExecutionsCommand, { statusFilter: 'PENDING_REDRIVE' }).resolves({ executions: page(2) as never });
    await expect(executions().countRunning()).resolves.toBe(1005);
    expect(sfn).toHaveReceivedCommandWith(ListExecutionsCommand, { statusFilter: 'RUNNING', nextToken: 't1' });
  });

  it('describes executions: status, stop time, error and cause; missing ones are NOT_FOUND', async () => {
    sfn.on(DescribeExecutionCommand, { executionArn: arnOf('a') }).resolves({ status: 'RUNNING' });
    sfn.on(DescribeExecutionCommand, { executionArn: arnOf('b') }).resolves({
      status: 'FAILED',
      stopDate: new Date(1_000),
      error: 'ConfigError',
      cause: 'cluster c1: unknown ref "mian"',
    });
    sfn
      .on(DescribeExecutionCommand, { executionArn: arnOf('c') })
      .rejects(new ExecutionDoesNotExist({ message: 'gone', ...meta }));
    await expect(
      executions().describe([{ name: 'a' }, { name: 'b', arn: arnOf('b') }, { name: 'c' }]),
    ).resolves.toEqual([
      { name: 'a', status: 'RUNNING' },
      { name: 'b', status: 'FAILED', stoppedAt: 1_000, error: 'ConfigError', cause: 'cluster c1: unknown ref "mian"' },
      { name: 'c', status: 'NOT_FOUND' },
    ]);
  });

  it('with many to describe, lists the running ones and describes only the others (DescribeExecution is 15/s)', async () => {
    // 1,500 recorded as running: 1,497 still run (two ListExecutions pages), 2 ended, 1 is gone.
    const names = Array.from({ length: 1500 }, (_, i) => `u${i}`);
    const listed = names.slice(3).map((name) => ({ executionArn: arnOf(name) }));
    sfn
      .on(ListExecutionsCommand, { statusFilter: 'RUNNING' })
      .resolvesOnce({ executions: listed.slice(0, 1000) as never, nextToken: 't1' })
      .resolvesOnce({ executions: listed.slice(1000) as never });
    sfn
      .on(DescribeExecutionCommand, { executionArn: arnOf('u0') })
      .resolves({ status: 'SUCCEEDED', stopDate: new Date(5) });
    sfn
      .on(DescribeExecutionCommand, { executionArn: arnOf('u1') })
      .resolves({ status: 'FAILED', stopDate: new Date(6), error: 'RolloutError' });
    sfn
      .on(DescribeExecutionCommand, { executionArn: arnOf('u2') })
      .rejects(new ExecutionDoesNotExist({ message: 'gone', ...meta }));

    const outcomes = await executions().describe(names.map((name) => ({ name })));

    expect(outcomes.slice(0, 4)).toEqual([
      { name: 'u0', status: 'SUCCEEDED', stoppedAt: 5 },
      { name: 'u1', status: 'FAILED', stoppedAt: 6, error: 'RolloutError' },
      { name: 'u2', status: 'NOT_FOUND' },
      { name: 'u3', status: 'RUNNING' },
    ]);
    expect(outcomes.filter((o) => o.status === 'RUNNING')).toHaveLength(1497);
    expect(sfn).toHaveReceivedCommandTimes(DescribeExecutionCommand, 3);
    expect(sfn).toHaveReceivedCommandTimes(ListExecutionsCommand, 2);
  });

  it('says when a succeeded execution handed over at a loop cap (its output held HANDED_OVER)', async () => {
    sfn.on(DescribeExecutionCommand, { executionArn: arnOf('h') }).resolves({
      status: 'SUCCEEDED',
      stopDate: new Date(2_000),
      output: JSON.stringify({ clusterId: 'c1', held: { status: 'HANDED_OVER', message: 'loop cap' } }),
    });
    sfn.on(DescribeExecutionCommand, { executionArn: arnOf('p') }).resolves({
      status: 'SUCCEEDED',
      stopDate: new Date(2_000),
      output: JSON.stringify({ clusterId: 'c1', held: { status: 'PAUSED', message: 'paused' } }),
    });
    await expect(executions().describe([{ name: 'h' }, { name: 'p' }])).resolves.toEqual([
      { name: 'h', status: 'SUCCEEDED', stoppedAt: 2_000, handedOver: true },
      { name: 'p', status: 'SUCCEEDED', stoppedAt: 2_000 },
    ]);
  });

  it('says which version a succeeded execution worked towards (its Prepare resolved the channel when it started)', async () => {
    sfn.on(DescribeExecutionCommand, { executionArn: arnOf('r') }).resolves({
      status: 'SUCCEEDED',
      stopDate: new Date(3_000),
      output: JSON.stringify({ clusterId: 'c1', run: { decision: 'UPDATE', targetVersion: 'cccc#h' } }),
    });
    await expect(executions().describe([{ name: 'r' }])).resolves.toEqual([
      { name: 'r', status: 'SUCCEEDED', stoppedAt: 3_000, ranTo: 'cccc#h' },
    ]);
  });
});
