// cluster-update run locally when things fail: the problem is recorded and the run fails with the original error
// (after the retry budget, when recording fails too, when a child rollout fails, on an unknown decision).
import { ClusterUpdateState } from '../../lambdas/contracts/cluster-update';
import { RolloutError, StackFailedError, TransientApiError } from '../../lambdas/shared/errors';
import { runClusterUpdate } from './local-harness';

import { INPUT, prepare, provisionTasks, recorder } from './fake-tasks';

describe('cluster-update run locally, failing', () => {
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
});
