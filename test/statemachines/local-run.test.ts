// Runs both ASL files with aws-local-stepfunctions over fake tasks that speak the zod contracts: no-op, update
// with polling and one pool per group, CONTINUE hand-over, retries, failures, decommission. Counts transitions.
import { ClusterUpdateState, RolloutInput, RolloutState, TaskPayload } from '../../lambdas/contracts/cluster-update';
import type {
  ClusterUpdateInput,
  FinalizeOutput,
  PrepareOutput,
  RenderConfigOutput,
  RenderResourcesOutput,
  RollStepOutput,
  StepOutput,
} from '../../lambdas/contracts/cluster-update';
import { MAX_ROLLOUT_ITERATIONS } from '../../lambdas/contracts/status';
import type { Decision } from '../../lambdas/contracts/status';
import { RolloutError, StackFailedError, ThrottledError, TransientApiError } from '../../lambdas/shared/errors';
import { runClusterUpdate, runNodePoolRollout } from './local-harness';
import type { FakeTask } from './local-harness';

const INPUT: ClusterUpdateInput = {
  clusterId: 'aws:123456789012:eu-central-1:kube-1',
  action: 'provision',
  options: { applyOnly: false },
  trigger: 'cli',
};

interface Call {
  readonly state: string;
  readonly payload: TaskPayload;
}

/** Fake Lambda tasks: each call is parsed with the TaskPayload contract and recorded. */
function recorder() {
  const calls: Call[] = [];
  const task = <T>(respond: (payload: TaskPayload, call: number) => T): FakeTask => {
    let count = 0;
    return (raw: unknown) => {
      const payload = TaskPayload.parse(raw);
      calls.push({ state: payload.stateName, payload });
      count += 1;
      return respond(payload, count);
    };
  };
  return { calls, task };
}

const done = (message = 'done'): StepOutput => ({ status: 'DONE', waitSeconds: 1, message });
const inProgress = (message = 'working'): StepOutput => ({ status: 'IN_PROGRESS', waitSeconds: 30, message });

function prepare(decision: Decision): PrepareOutput {
  return {
    decision,
    targetVersion: 'abc123#def456',
    previousVersion: 'old#old',
    holder: 'exec-1',
    message: `decision ${decision}`,
  };
}

/** Every parent task answering "done" at once; `resources` picks the pools to roll. */
function provisionTasks(
  rec: ReturnType<typeof recorder>,
  resources: Partial<RenderResourcesOutput> = {},
  overrides: Record<string, FakeTask> = {},
) {
  const step = rec.task(() => done());
  const stateOf = (payload: TaskPayload) => ClusterUpdateState.parse(payload.state);
  return {
    Prepare: rec.task(() => prepare('UPDATE')),
    RenderConfig: rec.task((p): RenderConfigOutput => ({
      artifactKey: `render/${stateOf(p).run!.targetVersion}`,
      message: 'rendered',
    })),
    DeployMainStack: step,
    RenderClusterResources: rec.task((): RenderResourcesOutput => ({
      artifactKey: 'resources/1',
      rollMasterPools: [],
      rollWorkerPools: [],
      message: 'rendered',
      ...resources,
    })),
    DeployCfManifestStacks: step,
    DeployMasterPoolStacks: step,
    WaitForApiServer: step,
    DeployWorkerPoolStacks: step,
    PreApplyDeletions: step,
    ApplyManifests: step,
    PostApplyDeletions: step,
    RemoveDeletedPools: step,
    Finalize: rec.task((p): FinalizeOutput => ({
      status: 'SUCCEEDED',
      version: stateOf(p).run!.targetVersion,
      message: 'updated',
    })),
    RecordProblem: rec.task(() => ({ recorded: true })),
    ...overrides,
  };
}

/** A RollNodePool fake that replaces one node per step; `iteration` counts steps of this execution. */
function rollStep(nodes: number, opts: { jumpToCapAt?: number } = {}): FakeTask {
  let replaced = 0;
  return (raw: unknown) => {
    const payload = TaskPayload.parse(raw);
    const state = RolloutState.parse(payload.state);
    const iteration = (state.step?.iteration ?? 0) + 1;
    replaced = Math.min(nodes, replaced + 1);
    const out: RollStepOutput = {
      status: replaced >= nodes ? 'DONE' : 'IN_PROGRESS',
      waitSeconds: 60,
      message: `${state.pool}: ${replaced}/${nodes} nodes replaced`,
      pool: state.pool,
      iteration: opts.jumpToCapAt !== undefined && iteration >= opts.jumpToCapAt ? MAX_ROLLOUT_ITERATIONS : iteration,
      replaced,
      total: nodes,
    };
    return out;
  };
}

describe('cluster-update run locally', () => {
  it('ends a no-op check in NoChanges after 3 transitions', async () => {
    // Arrange
    const rec = recorder();
    // Act
    const run = await runClusterUpdate(INPUT, { tasks: { Prepare: rec.task(() => prepare('NOOP')) } });
    // Assert
    expect(run.error).toBeUndefined();
    expect(run.entered).toEqual(['Prepare', 'DecideAction', 'NoChanges']);
    expect(run.entered.length).toBeLessThanOrEqual(10);
    expect(rec.calls[0].payload).toEqual({
      state: INPUT,
      executionId: 'arn:aws:states:eu-central-1:123456789012:execution:clm-cluster-update:test-1',
      stateName: 'Prepare',
      params: {},
    });
  });

  it('ends in Skipped when Prepare says SKIP', async () => {
    const run = await runClusterUpdate(INPUT, { tasks: { Prepare: () => prepare('SKIP') } });
    expect(run.entered).toEqual(['Prepare', 'DecideAction', 'Skipped']);
  });

  it('runs an update without node changes within the transition budget', async () => {
    // Arrange
    const rec = recorder();
    // Act
    const run = await runClusterUpdate(INPUT, { tasks: provisionTasks(rec) });
    // Assert
    expect(run.error).toBeUndefined();
    expect(run.entered.at(-1)).toBe('Updated');
    expect(run.entered).not.toContain('RecordProblem');
    expect(run.children).toHaveLength(0);
    expect(run.entered.length).toBe(26);
    expect(run.entered.length).toBeLessThanOrEqual(60);
    expect(rec.calls.map((c) => c.payload.params)).toEqual([
      {},
      {},
      { stage: 'main' },
      {},
      { stage: 'cf-manifests' },
      { stage: 'master-pools' },
      {},
      { stage: 'worker-pools' },
      { phase: 'pre-deletions' },
      { phase: 'apply' },
      { phase: 'post-deletions' },
      {},
      {},
    ]);
    expect(rec.calls.map((c) => c.state)).toEqual([
      'Prepare',
      'RenderConfig',
      'DeployMainStack',
      'RenderClusterResources',
      'DeployCfManifestStacks',
      'DeployMasterPoolStacks',
      'WaitForApiServer',
      'DeployWorkerPoolStacks',
      'PreApplyDeletions',
      'ApplyManifests',
      'PostApplyDeletions',
      'RemoveDeletedPools',
      'Finalize',
    ]);
    const finalState = ClusterUpdateState.parse(rec.calls.at(-1)!.payload.state);
    expect(finalState.render).toEqual({ artifactKey: 'render/abc123#def456', message: 'rendered' });
    expect(run.output).toEqual(
      expect.objectContaining({ final: { status: 'SUCCEEDED', version: 'abc123#def456', message: 'updated' } }),
    );
  });

  it('polls a stack that is still deploying through WaitForMainStack', async () => {
    const rec = recorder();
    const deploy = rec.task((_p, call) => (call <= 2 ? inProgress('main stack UPDATE_IN_PROGRESS') : done()));
    const run = await runClusterUpdate(INPUT, { tasks: provisionTasks(rec, {}, { DeployMainStack: deploy }) });
    expect(run.error).toBeUndefined();
    expect(run.entered.filter((s) => s === 'DeployMainStack')).toHaveLength(3);
    expect(run.entered.filter((s) => s === 'WaitForMainStack')).toHaveLength(2);
    // each poll costs Wait + Task + Choice
    expect(run.entered.length).toBe(26 + 2 * 3);
  });

  it('rolls one master and one worker pool through child executions, in order', async () => {
    // Arrange
    const rec = recorder();
    const childInputs: unknown[] = [];
    const perPool = new Map<string, FakeTask>();
    // Act
    const run = await runClusterUpdate(INPUT, {
      tasks: provisionTasks(rec, { rollMasterPools: ['master-default'], rollWorkerPools: ['default-worker'] }),
      childTasks: {
        RollStep: (raw: any) => {
          childInputs.push(raw.state);
          const pool = RolloutInput.parse(raw.state).pool;
          if (!perPool.has(pool)) perPool.set(pool, rollStep(3));
          return perPool.get(pool)!(raw);
        },
      },
    });
    // Assert
    expect(run.error).toBeUndefined();
    expect(run.children.map((c) => c.output)).toEqual([
      { status: 'DONE', pool: 'master-default', replaced: 3, total: 3, message: 'master-default: 3/3 nodes replaced' },
      { status: 'DONE', pool: 'default-worker', replaced: 3, total: 3, message: 'default-worker: 3/3 nodes replaced' },
    ]);
    expect(run.children[0].entered).toEqual([
      'RollStep',
      'RollStepResult',
      'WaitForNodes',
      'RollStep',
      'RollStepResult',
      'WaitForNodes',
      'RollStep',
      'RollStepResult',
      'RolloutDone',
    ]);
    const first = RolloutInput.parse(childInputs[0]);
    expect(first).toEqual({
      clusterId: INPUT.clusterId,
      targetVersion: 'abc123#def456',
      holder: 'exec-1',
      pool: 'master-default',
      options: { applyOnly: false },
    });
    expect(childInputs[0]).toEqual(
      expect.objectContaining({
        AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID:
          'arn:aws:states:eu-central-1:123456789012:execution:clm-cluster-update:test-1',
      }),
    );
    const order = run.entered.filter((s) =>
      ['RollMasterPools', 'DeployWorkerPoolStacks', 'RollWorkerPools', 'PreApplyDeletions'].includes(s),
    );
    expect(order).toEqual(['RollMasterPools', 'DeployWorkerPoolStacks', 'RollWorkerPools', 'PreApplyDeletions']);
    // parent: 26 + per pool StartXPoolRollout, XPoolRolloutFinished, XPoolRolled
    expect(run.entered.length).toBe(26 + 2 * 3);
  });

  it('starts a fresh child when the rollout hands over with CONTINUE', async () => {
    // Arrange: the first child reaches the iteration cap at its 2nd step, the second finishes the pool.
    let executions = 0;
    let current: FakeTask | undefined;
    const rec = recorder();
    // Act
    const run = await runClusterUpdate(INPUT, {
      tasks: provisionTasks(rec, { rollWorkerPools: ['default-worker'] }),
      childTasks: {
        RollStep: (raw: any) => {
          if (!raw.state.step) {
            executions += 1;
            current = executions === 1 ? rollStep(5, { jumpToCapAt: 2 }) : rollStep(3);
          }
          return current!(raw);
        },
      },
    });
    // Assert
    expect(run.error).toBeUndefined();
    expect(run.children.map((c) => c.entered.at(-1))).toEqual(['HandOver', 'RolloutDone']);
    expect(run.children[0].output).toEqual({
      status: 'CONTINUE',
      pool: 'default-worker',
      replaced: 2,
      total: 5,
      message: 'default-worker: 2/5 nodes replaced',
    });
    expect(run.entered.filter((s) => s === 'StartWorkerPoolRollout')).toHaveLength(2);
    expect(run.entered.at(-1)).toBe('Updated');
  });

  it('retries a retryable error and carries on', async () => {
    const rec = recorder();
    const deploy = rec.task((_p, call) => {
      if (call === 1) throw new ThrottledError('CloudFormation: Rate exceeded');
      return done();
    });
    const run = await runClusterUpdate(INPUT, { tasks: provisionTasks(rec, {}, { DeployMainStack: deploy }) });
    expect(run.error).toBeUndefined();
    expect(run.retried).toEqual(['DeployMainStack']);
    expect(run.entered).not.toContain('RecordProblem');
  });

  it('records the problem and fails with the original error name when a step fails', async () => {
    // Arrange
    const rec = recorder();
    const problems: unknown[] = [];
    const failing = rec.task(() => {
      throw new StackFailedError('kube-1', 'UPDATE_ROLLBACK_COMPLETE', 'Resource LaunchTemplate failed');
    });
    // Act
    const run = await runClusterUpdate(INPUT, {
      tasks: provisionTasks(
        rec,
        {},
        {
          DeployMainStack: failing,
          RecordProblem: rec.task((p) => {
            problems.push(ClusterUpdateState.parse(p.state).error);
            return {};
          }),
        },
      ),
    });
    // Assert
    expect(run.entered.slice(-3)).toEqual(['DeployMainStack', 'RecordProblem', 'Failed']);
    expect(run.retried).toEqual([]);
    expect(problems).toEqual([
      { Error: 'StackFailedError', Cause: 'Stack kube-1 is UPDATE_ROLLBACK_COMPLETE: Resource LaunchTemplate failed' },
    ]);
    expect(run.error).toEqual({
      name: 'StackFailedError',
      cause: 'Stack kube-1 is UPDATE_ROLLBACK_COMPLETE: Resource LaunchTemplate failed',
    });
  });

  it('gives up on a retryable error after the retry budget and fails with its name', async () => {
    const rec = recorder();
    const run = await runClusterUpdate(INPUT, {
      tasks: provisionTasks(
        rec,
        {},
        {
          ApplyManifests: rec.task(() => {
            throw new TransientApiError('API server 503');
          }),
        },
      ),
    });
    expect(run.retried.filter((s) => s === 'ApplyManifests')).toHaveLength(5);
    expect(run.error).toEqual({ name: 'TransientApiError', cause: 'API server 503' });
  });

  it('fails with the original error even when recording the problem fails', async () => {
    const run = await runClusterUpdate(INPUT, {
      tasks: {
        Prepare: () => {
          throw new StackFailedError('kube-1', 'DELETE_FAILED');
        },
        RecordProblem: () => {
          throw new StackFailedError('registry', 'unreachable');
        },
      },
    });
    expect(run.entered).toEqual(['Prepare', 'RecordProblem', 'Failed']);
    expect(run.error).toEqual({ name: 'StackFailedError', cause: 'Stack kube-1 is DELETE_FAILED' });
  });

  it('fails the update with States.TaskFailed when a child rollout fails, recording the child error', async () => {
    const rec = recorder();
    const problems: unknown[] = [];
    const run = await runClusterUpdate(INPUT, {
      tasks: provisionTasks(
        rec,
        { rollWorkerPools: ['default-worker'] },
        {
          RecordProblem: rec.task((p) => {
            problems.push(ClusterUpdateState.parse(p.state).error);
            return {};
          }),
        },
      ),
      childTasks: {
        RollStep: () => {
          throw new RolloutError('node ip-10-0-1-5 did not drain within 6h');
        },
      },
    });
    expect(run.children[0].error).toEqual({ name: 'RolloutError', cause: 'node ip-10-0-1-5 did not drain within 6h' });
    expect(run.entered.slice(-3)).toEqual(['StartWorkerPoolRollout', 'RecordProblem', 'Failed']);
    expect(problems).toEqual([
      {
        Error: 'States.TaskFailed',
        Cause: JSON.stringify({ Error: 'RolloutError', Cause: 'node ip-10-0-1-5 did not drain within 6h' }),
      },
    ]);
    expect(run.error?.name).toBe('States.TaskFailed');
  });

  it('records an unknown decision as a ValidationError', async () => {
    const run = await runClusterUpdate(INPUT, {
      tasks: { Prepare: () => ({ ...prepare('NOOP'), decision: 'MAYBE' }), RecordProblem: () => ({}) },
    });
    expect(run.entered).toEqual(['Prepare', 'DecideAction', 'UnknownDecision', 'RecordProblem', 'Failed']);
    expect(run.error?.name).toBe('ValidationError');
  });

  it('decommissions: scale down, delete other stacks in rounds, delete main stack, finalize', async () => {
    // Arrange
    const rec = recorder();
    const deletes = rec.task((p, call) =>
      (p.params as { stage?: string }).stage === 'others' && call === 1 ? inProgress('2 stacks deleting') : done(),
    );
    // Act
    const run = await runClusterUpdate(
      { ...INPUT, action: 'decommission' },
      {
        tasks: {
          Prepare: rec.task(() => prepare('DECOMMISSION')),
          ScaleDownControllers: rec.task(() => done()),
          DeleteClusterStacks: deletes,
          DeleteMainStack: deletes,
          FinalizeDecommission: rec.task((): FinalizeOutput => ({
            status: 'SUCCEEDED',
            version: 'abc123#def456',
            message: 'decommissioned',
          })),
        },
      },
    );
    // Assert
    expect(run.error).toBeUndefined();
    expect(run.entered).toEqual([
      'Prepare',
      'DecideAction',
      'ScaleDownControllers',
      'AreControllersScaledDown',
      'DeleteClusterStacks',
      'AreClusterStacksDeleted',
      'WaitForClusterStacksDeletion',
      'DeleteClusterStacks',
      'AreClusterStacksDeleted',
      'DeleteMainStack',
      'IsMainStackDeleted',
      'FinalizeDecommission',
      'Decommissioned',
    ]);
    expect(rec.calls.map((c) => c.payload.params)).toEqual([
      {},
      {},
      { stage: 'others' },
      { stage: 'others' },
      { stage: 'main' },
      {},
    ]);
  });
});

describe('node-pool-rollout run locally', () => {
  const input: RolloutInput = {
    clusterId: INPUT.clusterId,
    targetVersion: 'abc123#def456',
    holder: 'exec-1',
    pool: 'default-worker',
    options: { applyOnly: false },
  };

  it('costs 3 transitions per step and ends with the RolloutOutput', async () => {
    const run = await runNodePoolRollout(input, { RollStep: rollStep(4) });
    expect(run.output).toEqual({
      status: 'DONE',
      pool: 'default-worker',
      replaced: 4,
      total: 4,
      message: 'default-worker: 4/4 nodes replaced',
    });
    // 4 steps: 3 × (RollStep, RollStepResult, WaitForNodes) + RollStep, RollStepResult, RolloutDone
    expect(run.entered).toHaveLength(4 * 3);
  });

  it('hands over with CONTINUE at MAX_ROLLOUT_ITERATIONS', async () => {
    const run = await runNodePoolRollout(input, { RollStep: rollStep(10, { jumpToCapAt: 3 }) });
    expect(run.entered.at(-1)).toBe('HandOver');
    expect(run.output).toEqual(expect.objectContaining({ status: 'CONTINUE', replaced: 3, total: 10 }));
  });

  it('fails with the original error name', async () => {
    const run = await runNodePoolRollout(input, {
      RollStep: () => {
        throw new RolloutError('PDB kube-system/coredns allows 0 disruptions');
      },
    });
    expect(run.entered).toEqual(['RollStep', 'RolloutFailed']);
    expect(run.error).toEqual({ name: 'RolloutError', cause: 'PDB kube-system/coredns allows 0 disruptions' });
  });
});
