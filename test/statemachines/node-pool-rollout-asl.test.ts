// Static checks of statemachines/node-pool-rollout.asl.json: the step loop, its output contract, its history budget.
import { MAX_ROLLOUT_ITERATIONS, ROLLOUT_RESULT, STEP_STATUS } from '../../lambdas/contracts/status';
import { RolloutOutput } from '../../lambdas/contracts/cluster-update';
import { loadAsl } from './asl-graph';
import { IN_PROCESS_WAIT_SECONDS } from '../../lambdas/core/rollout/roll-step-report';
import { task as rollNodePool } from '../../lambdas/tasks/roll-node-pool';

describe('ASL node-pool-rollout', () => {
  const machine = loadAsl('nodePoolRollout');

  it('loops RollStep → RollStepResult → WaitForNodes until DONE or the iteration cap', () => {
    expect(machine.StartAt).toBe('RollStep');
    expect(machine.States.RollStep.Next).toBe('RollStepResult');
    expect(machine.States.RollStepResult.Choices).toEqual([
      { Variable: '$.step.status', StringEquals: STEP_STATUS.DONE, Next: 'RolloutDone' },
      { Variable: '$.step.status', StringEquals: STEP_STATUS.HELD, Next: 'RolloutHeld' },
      { Variable: '$.step.iteration', NumericGreaterThanEquals: MAX_ROLLOUT_ITERATIONS, Next: 'HandOver' },
      { Variable: '$.step.status', StringEquals: STEP_STATUS.WINDOW, Next: 'WaitForWindow' },
      // A step that already waited in process (a drain PDBs refused) steps again without a Wait state.
      { Variable: '$.step.waitSeconds', NumericEquals: 0, Next: 'RollStep' },
    ]);
    expect(machine.States.RollStepResult.Default).toBe('WaitForNodes');
    expect(machine.States.WaitForNodes.Next).toBe('RollStep');
    // Outside the maintenance windows: one Wait until the next opens, however far away.
    expect(machine.States.WaitForWindow).toMatchObject({
      Type: 'Wait',
      TimestampPath: '$.step.resumeAt',
      Next: 'RollStep',
    });
    expect(machine.States.RollStep.Catch).toEqual([
      { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'RolloutFailed' },
    ]);
  });

  it('gives RollStep time for its in-process wait: the function and the state outlast it with a margin', () => {
    const timeout = rollNodePool.lambda?.timeoutSeconds ?? 60;
    expect(timeout).toBeGreaterThanOrEqual(IN_PROCESS_WAIT_SECONDS + 120);
    expect(machine.States.RollStep.TimeoutSeconds).toBeGreaterThanOrEqual(timeout);
  });

  it('returns the RolloutOutput contract from every end state', () => {
    for (const [name, status] of [
      ['RolloutDone', ROLLOUT_RESULT.DONE],
      ['HandOver', ROLLOUT_RESULT.CONTINUE],
      ['RolloutHeld', ROLLOUT_RESULT.HELD],
    ] as const) {
      const state = machine.States[name];
      expect(state).toEqual(expect.objectContaining({ Type: 'Pass', End: true }));
      const keys = Object.keys(state.Parameters!)
        .map((k) => k.replace(/\.\$$/, ''))
        .sort();
      expect(keys).toEqual(Object.keys(RolloutOutput.shape).sort());
      expect(state.Parameters!.status).toBe(status);
    }
  });

  it('stays below 20,000 history events before handing over (9 events per quiet iteration)', () => {
    // Per iteration: RollStep = TaskStateEntered, LambdaFunctionScheduled, LambdaFunctionStarted,
    // LambdaFunctionSucceeded, TaskStateExited (5); RollStepResult = ChoiceStateEntered/Exited (2);
    // WaitForNodes = WaitStateEntered/Exited (2). Plus ExecutionStarted, the end Pass (2) and ExecutionSucceeded.
    const eventsPerIteration = 5 + 2 + 2;
    const fixed = 1 + 2 + 1;
    expect(eventsPerIteration * MAX_ROLLOUT_ITERATIONS + fixed).toBeLessThan(20_000);
  });
});
