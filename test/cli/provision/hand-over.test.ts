// A CLI run whose execution reached a loop cap (HANDED_OVER) goes on in a fresh run, as the dispatcher does in AWS.
import { MAX_HAND_OVERS, untilNotHandedOver } from '../../../lambdas/cli/provision/run-one';
import type { ExecutionResult } from '../../../lambdas/runtime/local/run-cluster-update';

const never = new Promise<'stopped'>(() => undefined);

function result(held?: string): ExecutionResult {
  return {
    status: 'SUCCEEDED',
    output: held ? { held: { status: held, message: held } } : {},
    stats: { stateTransitions: 10, maxHistoryEvents: held ? 500 : 100, executions: 1 },
    run: {} as ExecutionResult['run'],
  };
}

describe('untilNotHandedOver', () => {
  it('runs again after each hand-over and adds up the transitions of every run', async () => {
    // Arrange
    const outcomes = [result('HANDED_OVER'), result('HANDED_OVER'), result()];
    const handOvers: number[] = [];

    // Act
    const final = await untilNotHandedOver(
      async () => outcomes.shift()!,
      never,
      (n) => handOvers.push(n),
    );

    // Assert
    expect(handOvers).toEqual([1, 2]);
    expect(final).toMatchObject({ status: 'SUCCEEDED', output: {} });
    expect(final !== 'stopped' && final.stats).toEqual({ stateTransitions: 30, executions: 3, maxHistoryEvents: 500 });
  });

  it('does not run again when the execution is held for the operator (PAUSED)', async () => {
    // Arrange
    let runs = 0;

    // Act
    const final = await untilNotHandedOver(
      async () => (runs++, result('PAUSED')),
      never,
      () => undefined,
    );

    // Assert
    expect(runs).toBe(1);
    expect(final !== 'stopped' && final.output).toEqual({ held: { status: 'PAUSED', message: 'PAUSED' } });
  });

  it('gives up after MAX_HAND_OVERS hand-overs and reports the run held', async () => {
    // Arrange
    let runs = 0;

    // Act
    const final = await untilNotHandedOver(
      async () => (runs++, result('HANDED_OVER')),
      never,
      () => undefined,
    );

    // Assert
    expect(runs).toBe(MAX_HAND_OVERS + 1);
    expect(final !== 'stopped' && final.output).toMatchObject({ held: { status: 'HANDED_OVER' } });
  });
});
