// cluster-update run locally (aws-local-stepfunctions over fake tasks that speak the zod contracts): no-op, skip,
// update with polling and one pool per group, CONTINUE hand-over, a retried error. Counts transitions.
import { ClusterUpdateState, RolloutInput, type StepOutput } from '../../lambdas/contracts/cluster-update';
import { ThrottledError } from '../../lambdas/shared/errors';
import { runClusterUpdate } from './local-harness';
import type { FakeTask } from './local-harness';

import { done, inProgress, INPUT, prepare, provisionTasks, recorder, rollStep } from './fake-tasks';

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
    // no pool to roll: the roll Maps are skipped, not entered with no items
    expect(run.entered).not.toContain('RollMasterPools');
    expect(run.entered).not.toContain('RollWorkerPools');
    // 24 states (the health check done by PostApplyDeletions: no Karpenter pools), and BeforeFirstWrite (the Choice of
    // the window and approval gates) once.
    expect(run.entered.length).toBe(25);
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
    expect(finalState.render).toEqual({
      artifactKey: 'render/abc123#def456',
      message: 'rendered',
      approvalRequired: false,
    });
    expect(run.output).toEqual(
      expect.objectContaining({ final: { status: 'SUCCEEDED', version: 'abc123#def456', message: 'updated' } }),
    );
  });

  it('checks the workloads after the Karpenter pools when the cluster has some (CheckWorkloadHealth), else in PostApplyDeletions', async () => {
    const rec = recorder();
    const karpenter = { karpenterPools: ['spot'], karpenterPoolCount: 1, rollKarpenterPools: [] };
    const tasks = provisionTasks(rec, karpenter, {
      ApplyKarpenterPools: rec.task(() => ({ ...done(), rollPools: [], rollPoolCount: 0 })),
    });
    const run = await runClusterUpdate(INPUT, { tasks });
    expect(run.error).toBeUndefined();
    const after = run.entered.slice(run.entered.indexOf('PostApplyDeletions'));
    expect(after.slice(0, 8)).toEqual([
      'PostApplyDeletions',
      'ArePostApplyDeletionsDone',
      'ApplyKarpenterPools',
      'AreKarpenterPoolsApplied',
      'CheckWorkloadHealth',
      'AreWorkloadsHealthy',
      'RemoveDeletedPools',
      'AreDeletedPoolsRemoved',
    ]);
    expect(rec.calls.filter((c) => c.state === 'CheckWorkloadHealth').map((c) => c.payload.params)).toEqual([
      { phase: 'health' },
    ]);
  });

  it('polls a stack that is still deploying through WaitForMainStack', async () => {
    const rec = recorder();
    const deploy = rec.task((_p, call) => (call <= 2 ? inProgress('main stack UPDATE_IN_PROGRESS') : done()));
    const run = await runClusterUpdate(INPUT, { tasks: provisionTasks(rec, {}, { DeployMainStack: deploy }) });
    expect(run.error).toBeUndefined();
    expect(run.entered.filter((s) => s === 'DeployMainStack')).toHaveLength(3);
    expect(run.entered.filter((s) => s === 'WaitForMainStack')).toHaveLength(2);
    // each poll costs Wait + Task + Choice
    expect(run.entered.length).toBe(25 + 2 * 3);
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
    // parent: 25 + per group the Map + per pool StartXPoolRollout, XPoolRolloutFinished, XPoolRolled
    expect(run.entered.length).toBe(25 + 2 * (1 + 3));
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

  it('drains a removed pool through the rollout child (removal mode, handing over), then deletes its stack', async () => {
    // Arrange: RemoveDeletedPools first answers DRAIN; the first child hands over at its 2nd step, the second drains
    // the rest; RemoveDrainedPools (the same task, its own loop) then deletes the stack (IN_PROGRESS once) and is done.
    let executions = 0;
    let current: FakeTask | undefined;
    const childInputs: unknown[] = [];
    const rec = recorder();
    const answers: StepOutput[] = [
      {
        status: 'DRAIN',
        waitSeconds: 1,
        message: 'Removing 1 node pool(s): legacy: 3 node(s) to drain',
        drainPools: ['legacy'],
      },
      inProgress('deleting stack nodepool-legacy'),
      done('No node pools to remove'),
    ];
    const removePools = rec.task((_p, call) => answers[call - 1]!);
    // Act
    const run = await runClusterUpdate(INPUT, {
      tasks: provisionTasks(rec, {}, { RemoveDeletedPools: removePools, RemoveDrainedPools: removePools }),
      childTasks: {
        RollStep: (raw: any) => {
          if (!raw.state.step) {
            executions += 1;
            childInputs.push(RolloutInput.parse(raw.state));
            current = executions === 1 ? rollStep(3, { jumpToCapAt: 2 }) : rollStep(1);
          }
          return current!(raw);
        },
      },
    });
    // Assert
    expect(run.error).toBeUndefined();
    expect(run.children.map((c) => c.entered.at(-1))).toEqual(['HandOver', 'RolloutDone']);
    expect(childInputs).toEqual([
      expect.objectContaining({ pool: 'legacy', removal: true }),
      expect.objectContaining({ pool: 'legacy', removal: true }),
    ]);
    expect(
      run.entered.filter((s) => /RemovedPool|Remove(Deleted|Drained)Pools|(Deleted|Drained)Pools/.test(s)),
    ).toEqual([
      'RemoveDeletedPools',
      'AreDeletedPoolsRemoved',
      'DrainRemovedPools',
      'StartRemovedPoolDrain',
      'RemovedPoolDrainFinished',
      'CountRemovedPoolHandOver',
      'StartRemovedPoolDrain',
      'RemovedPoolDrainFinished',
      'RemovedPoolDrained',
      'RemoveDrainedPools',
      'AreDrainedPoolsRemoved',
      'WaitForDrainedPoolsRemoval',
      'RemoveDrainedPools',
      'AreDrainedPoolsRemoved',
    ]);
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
});
