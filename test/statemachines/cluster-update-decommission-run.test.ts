// cluster-update run locally for a decommission: scale down, delete the other stacks in rounds, clean up what the
// cluster left outside its stacks, the main stack, finalize.
import type { FinalizeOutput } from '../../lambdas/contracts/cluster-update';
import { runClusterUpdate } from './local-harness';

import { done, inProgress, INPUT, prepare, recorder } from './fake-tasks';

describe('cluster-update run locally, decommissioning', () => {
  it('decommissions: scale down, delete other stacks in rounds, clean up leftovers in passes, delete main stack, finalize', async () => {
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
          Prepare: rec.task(() => ({ ...prepare('DECOMMISSION'), controlPlane: 'eks' as const })),
          ReadDecommissionControlPlane: rec.task(() => ({ ...done(), controlPlane: 'present' as const })),
          ScaleDownControllers: rec.task(() => done()),
          DeleteClusterStacks: deletes,
          CleanUpLeftovers: rec.task((_p, call) => (call === 1 ? inProgress('security group in use') : done())),
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
      'ReadDecommissionControlPlane',
      'IsThereAControlPlane',
      'ScaleDownControllers',
      'AreControllersScaledDown',
      'DeleteClusterStacks',
      'AreClusterStacksDeleted',
      'WaitForClusterStacksDeletion',
      'DeleteClusterStacks',
      'AreClusterStacksDeleted',
      'CleanUpLeftovers',
      'AreLeftoversCleanedUp',
      'WaitForLeftoversCleanup',
      'CleanUpLeftovers',
      'AreLeftoversCleanedUp',
      'DeleteMainStack',
      'IsMainStackDeleted',
      'FinalizeDecommission',
      'Decommissioned',
    ]);
    expect(rec.calls.map((c) => c.payload.params)).toEqual([
      {},
      {},
      {},
      { stage: 'others' },
      { stage: 'others' },
      {},
      {},
      { stage: 'main' },
      {},
    ]);
  });

  it('finalizes at once, deleting nothing, when EKS has no cluster of that name', async () => {
    // Arrange
    const rec = recorder();
    const untouched = rec.task(() => done());
    // Act
    const run = await runClusterUpdate(
      { ...INPUT, action: 'decommission' },
      {
        tasks: {
          Prepare: rec.task(() => ({ ...prepare('DECOMMISSION'), controlPlane: 'eks' as const })),
          ReadDecommissionControlPlane: rec.task(() => ({ ...done(), controlPlane: 'absent' as const })),
          ScaleDownControllers: untouched,
          DeleteClusterStacks: untouched,
          CleanUpLeftovers: untouched,
          DeleteMainStack: untouched,
          FinalizeDecommission: rec.task((): FinalizeOutput => ({ status: 'SUCCEEDED', version: '', message: 'gone' })),
        },
      },
    );
    // Assert
    expect(run.error).toBeUndefined();
    expect(run.entered).toEqual([
      'Prepare',
      'DecideAction',
      'ReadDecommissionControlPlane',
      'IsThereAControlPlane',
      'FinalizeDecommission',
      'Decommissioned',
    ]);
  });
});
