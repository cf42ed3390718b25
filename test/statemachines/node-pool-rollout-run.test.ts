// node-pool-rollout run locally over a fake RollNodePool: transitions per step, CONTINUE at the iteration cap, failure.
import type { RolloutInput } from '../../lambdas/contracts/cluster-update';
import { RolloutError } from '../../lambdas/shared/errors';
import { runNodePoolRollout } from './local-harness';

import { INPUT, rollStep } from './fake-tasks';

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
