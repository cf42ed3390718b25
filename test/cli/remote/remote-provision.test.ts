import {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  GetExecutionHistoryCommand,
  StartExecutionCommand,
  type HistoryEvent,
  type SFNClient,
} from '@aws-sdk/client-sfn';
import { resolve } from 'node:path';
import { SfnExecutionHistory } from '../../../lambdas/adapters/aws/sfn-execution-history';
import { SfnUpdateExecutions } from '../../../lambdas/adapters/aws/sfn-update-executions';
import { configSourcesFromFlags } from '../../../lambdas/adapters/config-source/create-config-sources';
import { createRegistry } from '../../../lambdas/adapters/registry/create-registry';
import { runRemote } from '../../../lambdas/cli/remote/remote-provision';
import { main } from '../../../lambdas/cli/main';
import type { CliIo } from '../../../lambdas/cli/io';

const ROOT = resolve(__dirname, '../../..');
const MACHINE = 'arn:aws:states:eu-central-1:123456789012:stateMachine:ClusterUpdate';
const CLUSTER = 'aws:123456789012:eu-central-1:kube-test';

/** Step Functions, as far as --remote uses it: executions by name, each with a scripted history. */
class FakeSfn {
  readonly started: { name: string; input: unknown }[] = [];
  private readonly describes = new Map<string, number>();

  constructor(private readonly histories: (arn: string) => HistoryEvent[]) {}

  async send(command: unknown): Promise<unknown> {
    if (command instanceof StartExecutionCommand) {
      const { name, input } = command.input;
      if (this.started.some((s) => s.name === name))
        throw new ExecutionAlreadyExists({ message: 'exists', $metadata: {} });
      this.started.push({ name: name!, input: JSON.parse(input!) });
      return { executionArn: `${MACHINE.replace(':stateMachine:', ':execution:')}:${name}` };
    }
    if (command instanceof DescribeExecutionCommand) {
      const arn = command.input.executionArn!;
      const seen = this.describes.get(arn) ?? 0;
      this.describes.set(arn, seen + 1);
      // Running on the first look, ended afterwards.
      const done = seen > 0;
      return {
        status: done ? 'SUCCEEDED' : 'RUNNING',
        startDate: new Date(1_000_000),
        ...(done && !arn.includes('rollout') ? { output: JSON.stringify(finalOutput()) } : {}),
      };
    }
    if (command instanceof GetExecutionHistoryCommand) return { events: this.histories(command.input.executionArn!) };
    throw new Error(`unexpected ${String(command)}`);
  }
}

const CHILD = 'arn:aws:states:eu-central-1:123456789012:execution:NodePoolRollout:rollout-1';
const lambda = (id: number, seconds: number, output: unknown): HistoryEvent => ({
  id,
  type: 'LambdaFunctionSucceeded',
  timestamp: new Date(1_000_000 + seconds * 1000),
  lambdaFunctionSucceededEventDetails: { output: JSON.stringify(output) },
});
const entered = (id: number, name: string): HistoryEvent => ({
  id,
  type: 'TaskStateEntered',
  timestamp: new Date(1_000_000),
  stateEnteredEventDetails: { name },
});
const step = (replaced: number, status: string) => ({
  status,
  waitSeconds: 30,
  message: `default-worker: ${replaced}/2 nodes replaced`,
  pool: 'default-worker',
  iteration: replaced + 1,
  replaced,
  total: 2,
});

function finalOutput() {
  return {
    clusterId: CLUSTER,
    action: 'provision',
    options: { applyOnly: false },
    trigger: 'cli-remote',
    final: { status: 'SUCCEEDED', version: 'abc#def', message: `Cluster ${CLUSTER} is at abc#def (9 min)` },
  };
}

function histories(arn: string): HistoryEvent[] {
  if (arn === CHILD)
    return [
      entered(1, 'RollStep'),
      lambda(2, 120, step(1, 'IN_PROGRESS')),
      entered(3, 'RollStep'),
      lambda(4, 300, step(2, 'DONE')),
    ];
  return [
    entered(1, 'Prepare'),
    lambda(2, 1, {
      decision: 'UPDATE',
      targetVersion: 'abc#def',
      previousVersion: '',
      holder: 'h',
      message: 'Creating kube-test',
    }),
    entered(3, 'StartWorkerPoolRollout'),
    {
      id: 4,
      type: 'TaskSubmitted',
      timestamp: new Date(1_000_000),
      taskSubmittedEventDetails: {
        resourceType: 'states',
        resource: 'startExecution.sync:2',
        output: JSON.stringify({ ExecutionArn: CHILD }),
      },
    },
    entered(5, 'Finalize'),
    lambda(6, 540, finalOutput().final),
  ];
}

describe('clm provision --remote', () => {
  it('starts the deployed state machine under a deterministic name and follows it, children included', async () => {
    const sfn = new FakeSfn(histories);
    const client = sfn as unknown as SFNClient;
    const executions = new SfnUpdateExecutions({ client, stateMachineArn: MACHINE });
    const services = {
      executions,
      history: new SfnExecutionHistory(client),
      executionArn: (n: string) => executions.executionArn(n),
    };
    const registry = createRegistry('examples/clusters.yaml', { cwd: ROOT });
    const cluster = (await registry.listClusters()).find((c) => c.id === CLUSTER)!;
    const sources = configSourcesFromFlags({ directory: 'examples/config' }, { cwd: ROOT });
    const lines: string[] = [];
    const options = {
      verb: 'provision' as const,
      applyOnly: false,
      follow: true,
      print: (l: string) => lines.push(l),
      sleep: async () => undefined,
      pollMs: 1,
    };

    const [summary] = await runRemote([cluster], sources, services, options);

    expect(sfn.started).toEqual([
      {
        name: expect.stringMatching(/^update-kube-test-[0-9a-f]{20}$/),
        input: { clusterId: CLUSTER, action: 'provision', options: { applyOnly: false }, trigger: 'cli-remote' },
      },
    ]);
    expect(lines[0]).toBe(`${CLUSTER}: provision started as ${executions.executionArn(sfn.started[0]!.name)}`);
    expect(lines[1]).toContain(
      'https://eu-central-1.console.aws.amazon.com/states/home?region=eu-central-1#/v2/executions/details/',
    );
    expect(lines.slice(2)).toEqual([
      '  [     1s] Prepare: Creating kube-test',
      '  [  2m00s] RollStep: default-worker: 1/2 nodes replaced',
      '  [  5m00s] RollStep: default-worker: 2/2 nodes replaced',
      `  [  9m00s] Finalize: Cluster ${CLUSTER} is at abc#def (9 min)`,
    ]);
    expect(summary).toMatchObject({ id: CLUSTER, status: 'succeeded', version: 'abc#def' });

    // The same work again: that name has ended, so the second attempt's name.
    await runRemote([cluster], sources, services, { ...options, follow: false });
    expect(sfn.started.map((s) => s.name)).toEqual([sfn.started[0]!.name, `${sfn.started[0]!.name}-r2`]);
  });

  it('refuses --simulate and an ARN that is not a state machine', async () => {
    const io: CliIo & { err: string } = {
      err: '',
      cwd: ROOT,
      stdout: () => undefined,
      stderr: (t) => void (io.err += t),
    };
    const args = ['provision', '--registry', 'examples/clusters.yaml', '--directory', 'examples/config'];
    expect(await main([...args, '--simulate', '--remote', MACHINE], io)).toBe(2);
    expect(io.err).toContain('does not go with --simulate');
    expect(await main([...args, '--remote', 'arn:aws:lambda:eu-central-1:1:function:x'], io)).toBe(2);
    expect(io.err).toContain("give the cluster-update state machine's ARN");
  });
});
