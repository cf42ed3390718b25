// The loop caps of a cluster-update execution (LOOP_CAPS), run locally over fake tasks: a poll loop that never ends
// and a window that never opens both end the execution at a safe point (HandOverUpdate → StopAtSafePoint, HANDED_OVER)
// instead of growing its history without bound.
import type { RenderConfigOutput, StepOutput } from '../../lambdas/contracts/cluster-update';
import { ClusterUpdateState, TaskPayload } from '../../lambdas/contracts/cluster-update';
import { LOOP_CAPS } from '../../lambdas/contracts/status';
import { withPollCount } from '../../lambdas/runtime/poll-count';
import { ERROR_NAMES } from '../../lambdas/shared/errors';
import { runClusterUpdate } from './local-harness';
import { INPUT, inProgress, provisionTasks, recorder } from './fake-tasks';

const stateOf = (raw: unknown) => ClusterUpdateState.parse(TaskPayload.parse(raw).state);

describe('loop caps, run locally', () => {
  it('a stack that never finishes: the execution hands over after LOOP_CAPS.polls polls', async () => {
    // Arrange: DeployMainStack answers IN_PROGRESS forever, counted as runTask counts (runtime/poll-count.ts)
    const rec = recorder();
    const forever = rec.task((raw) => withPollCount(TaskPayload.parse(raw), inProgress('stack still creating')));
    const stop = rec.task(() => ({ status: 'HANDED_OVER', message: 'handed over' }));
    const tasks = provisionTasks(rec, {}, { DeployMainStack: forever, StopAtSafePoint: stop });

    // Act
    const run = await runClusterUpdate(INPUT, { tasks });

    // Assert
    expect(run.error).toBeUndefined();
    expect(run.entered.filter((s) => s === 'DeployMainStack')).toHaveLength(LOOP_CAPS.polls);
    expect(run.entered.slice(-4)).toEqual(['IsMainStackDeployed', 'HandOverUpdate', 'StopAtSafePoint', 'Held']);
    const handedOver = stateOf(rec.calls.find((c) => c.state === 'StopAtSafePoint')!.payload);
    expect(handedOver.error?.Error).toBe(ERROR_NAMES.UpdateHandedOverError);
    expect((handedOver.step as StepOutput).polls).toBe(LOOP_CAPS.polls);
  });

  it('a maintenance window that never opens: the execution hands over after LOOP_CAPS.windowWaits waits', async () => {
    // Arrange: RenderConfig always answers a resumeAt, counting its waits as the real task does
    const rec = recorder();
    const render = rec.task((raw): RenderConfigOutput => ({
      artifactKey: 'render/x',
      message: 'outside the windows',
      approvalRequired: false,
      resumeAt: '2026-01-01T12:00:00.000Z',
      windowWaits: (stateOf(raw).render?.windowWaits ?? 0) + 1,
    }));
    const stop = rec.task(() => ({ status: 'HANDED_OVER', message: 'handed over' }));
    const tasks = provisionTasks(rec, {}, { RenderConfig: render, StopAtSafePoint: stop });

    // Act
    const run = await runClusterUpdate(INPUT, { tasks });

    // Assert
    expect(run.error).toBeUndefined();
    expect(run.entered.filter((s) => s === 'WaitForMaintenanceWindow')).toHaveLength(LOOP_CAPS.windowWaits - 1);
    expect(run.entered.slice(-3)).toEqual(['HandOverUpdate', 'StopAtSafePoint', 'Held']);
    expect(rec.calls.map((c) => c.state)).not.toContain('DeployMainStack');
  });
});
