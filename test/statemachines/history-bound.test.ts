// The worst-case history of an execution, computed from the ASL files as they are (history-bound.ts): every loop must
// be bounded by a counter guard, every Lambda call may be retried as often as its Retry allows, and the total must
// stay ≤ 20,000 events (Step Functions' hard limit is 25,000).
import type { AslMachine } from './asl-graph';
import { loadAsl } from './asl-graph';
import { MAX_NODE_POOLS } from '../../lambdas/contracts/status';
import { HISTORY_EVENTS as E, historyBound, UnboundedLoopError, type BoundOptions } from './history-bound';

const LIMIT = 20_000;

/** The counters tasks write, and why each counts every call; what bounds each Map's items. */
const OPTIONS: BoundOptions = {
  taskCounters: {
    '$.step.iteration':
      'RollNodePool returns ($.step.iteration ?? 0) + 1 on every call (roll-node-pool.ts); a fresh execution starts at 0',
    '$.step.polls':
      'runTask adds ($.step.polls ?? 0) + 1 to every poll output (runtime/poll-count.ts); only polls write $.step',
    '$.render.windowWaits':
      'RenderConfig returns $.render.windowWaits + 1 with every resumeAt (render-config.ts), else the same count',
  },
  mapItems: {
    // RemoveDeletedPools hands out at most MAX_NODE_POOLS removed pools per execution.
    '$.step.drainPools': MAX_NODE_POOLS,
  },
  sharedMapItems: {
    // The roll Maps (masters, workers, Karpenter pools) take disjoint groups of the cluster's pools, split by profile,
    // and the registry refuses more than MAX_NODE_POOLS pools (wire-cluster-schema.ts): together at most that many.
    '$.step.rollPools': MAX_NODE_POOLS,
  },
};

const copy = (machine: AslMachine): AslMachine => JSON.parse(JSON.stringify(machine)) as AslMachine;

describe('worst-case execution history', () => {
  it('node-pool-rollout: every loop is bounded and the worst case stays within 20,000 events', () => {
    // Act
    const bound = historyBound(loadAsl('nodePoolRollout'), OPTIONS);

    // Assert
    expect(bound.loops.length).toBeGreaterThan(0);
    expect(bound.events).toBeLessThanOrEqual(LIMIT);
  });

  it('cluster-update: every loop is bounded and the worst case stays within 20,000 events', () => {
    // Act
    const bound = historyBound(loadAsl('clusterUpdate'), OPTIONS);

    // Assert
    expect(bound.loops.length).toBeGreaterThan(0);
    expect(bound.events).toBeLessThanOrEqual(LIMIT);
  });

  it('fails on a poll loop added to cluster-update without the polls cap', () => {
    // Arrange: a copy of the first polling Choice that loops back ahead of its cap
    const machine = copy(loadAsl('clusterUpdate'));
    const polled = Object.entries(machine.States).find(([, s]) =>
      s.Choices?.some((r) => r.And?.some((c) => c.Variable === '$.step.polls')),
    )!;
    const [name, choice] = polled;
    const waitFor = choice.Choices!.find((r) => r.StringEquals === 'IN_PROGRESS')!.Next!;
    choice.Choices = [{ Variable: '$.step.status', StringEquals: 'IN_PROGRESS', Next: waitFor }, ...choice.Choices!];

    // Act / Assert
    expect(() => historyBound(machine, OPTIONS)).toThrow(
      new RegExp(`unbounded loop .*${name}.*: it bypasses every counter guard$`),
    );
  });

  it('fails on a loop with no guard: the rollout without its iteration cap', () => {
    // Arrange: the same ASL with the `$.step.iteration >= N` rule removed
    const machine = copy(loadAsl('nodePoolRollout'));
    for (const state of Object.values(machine.States))
      if (state.Choices) state.Choices = state.Choices.filter((r) => r.Variable !== '$.step.iteration');

    // Act / Assert
    expect(() => historyBound(machine, OPTIONS)).toThrow(UnboundedLoopError);
    expect(() => historyBound(machine, OPTIONS)).toThrow(/^unbounded loop RollStep → .*: no counter guard leaves it$/);
  });

  it('fails on a loop that goes round ahead of the guard (a status rule before the cap loops back)', () => {
    // Arrange: a rule ahead of the cap that waits and steps again, as WINDOW did before the cap moved first
    const machine = copy(loadAsl('nodePoolRollout'));
    const capped = Object.values(machine.States).find((s) =>
      s.Choices?.some((r) => r.Variable === '$.step.iteration'),
    )!;
    capped.Choices = [{ Variable: '$.step.status', StringEquals: 'LATER', Next: 'SneakyWait' }, ...capped.Choices!];
    machine.States.SneakyWait = { Type: 'Wait', Seconds: 1, Next: machine.StartAt };

    // Act / Assert
    expect(() => historyBound(machine, OPTIONS)).toThrow(/SneakyWait.*: it bypasses every counter guard$/);
  });

  it('fails on a new unguarded wait loop added to a state machine', () => {
    // Arrange: a Task polled through a Choice and a Wait, with nothing counting
    const machine = copy(loadAsl('nodePoolRollout'));
    const first = machine.StartAt;
    machine.States.Poll = {
      Type: 'Task',
      Resource: '${RollNodePoolFunctionArn}',
      ResultPath: '$.poll',
      Next: 'IsPolled',
    };
    machine.States.IsPolled = {
      Type: 'Choice',
      Choices: [{ Variable: '$.poll.status', StringEquals: 'IN_PROGRESS', Next: 'WaitForPoll' }],
      Default: first,
    };
    machine.States.WaitForPoll = { Type: 'Wait', Seconds: 10, Next: 'Poll' };
    machine.StartAt = 'Poll';

    expect(() => historyBound(machine, OPTIONS)).toThrow(/^unbounded loop Poll → IsPolled → WaitForPoll/);
  });

  it('counts a polled, retried task, a Pass-counted loop and a Map by the documented per-state events', () => {
    // Arrange: Work (2 retries) ⟲ Check (work.count >= 10 leaves) ⟲ Again (Pass: count + 1) ⟲ Nap; then a Map of
    // at most 3 items, each Pass → Succeed; then Done
    const machine: AslMachine = {
      StartAt: 'Init',
      States: {
        Init: { Type: 'Pass', Result: { count: 0 }, ResultPath: '$.work', Next: 'Work' },
        Work: {
          Type: 'Task',
          Resource: 'arn:aws:lambda:eu-central-1:123456789012:function:work',
          ResultPath: '$.out',
          Retry: [{ ErrorEquals: ['States.ALL'], MaxAttempts: 2 }],
          Next: 'Check',
        },
        Check: {
          Type: 'Choice',
          Choices: [{ Variable: '$.work.count', NumericGreaterThanEquals: 10, Next: 'Each' }],
          Default: 'Again',
        },
        Again: {
          Type: 'Pass',
          Parameters: { 'count.$': 'States.MathAdd($.work.count, 1)' },
          ResultPath: '$.work',
          Next: 'Nap',
        },
        Nap: { Type: 'Wait', Seconds: 5, Next: 'Work' },
        Each: {
          Type: 'Map',
          ItemsPath: '$.items',
          ItemProcessor: {
            StartAt: 'One',
            States: { One: { Type: 'Pass', Next: 'Fine' }, Fine: { Type: 'Succeed' } },
          },
          Next: 'Done',
        },
        Done: { Type: 'Succeed' },
      },
    };

    // Act
    const bound = historyBound(machine, { taskCounters: {}, mapItems: { '$.items': 3 } });

    // Assert
    const loopPass = E.LAMBDA_TASK + 2 * E.LAMBDA_RETRY + E.CHOICE + E.PASS + E.WAIT;
    const map = E.MAP + 3 * (E.MAP_ITERATION + E.PASS + E.SUCCEED);
    expect(bound.loops).toEqual([
      { states: ['Work', 'Check', 'Again', 'Nap'], counter: '$.work.count', bound: 10, passEvents: loopPass },
    ]);
    expect(bound.events).toBe(E.EXECUTION + E.PASS + loopPass + map + E.SUCCEED + 10 * loopPass);
  });

  it('fails on a loop whose guard watches a counter nothing on the loop increments', () => {
    const machine: AslMachine = {
      StartAt: 'Work',
      States: {
        Work: { Type: 'Task', Resource: 'arn:aws:lambda:x:1:function:w', ResultPath: '$.other', Next: 'Check' },
        Check: {
          Type: 'Choice',
          Choices: [{ Variable: '$.step.iteration', NumericGreaterThanEquals: 10, Next: 'Done' }],
          Default: 'Work',
        },
        Done: { Type: 'Succeed' },
      },
    };

    expect(() => historyBound(machine, OPTIONS)).toThrow(/^unbounded loop Work → Check → Work: no state on it counts$/);
  });

  it('fails on a loop where another state overwrites the counter (a Pass writing $.step)', () => {
    // Arrange: the rollout with a Pass on its wait path that replaces $.step
    const machine = copy(loadAsl('nodePoolRollout'));
    const wait = Object.values(machine.States).find((st) => st.Type === 'Wait' && st.Next === machine.StartAt)!;
    machine.States.Reset = { Type: 'Pass', Result: { status: 'IN_PROGRESS' }, ResultPath: '$.step', Next: wait.Next };
    wait.Next = 'Reset';

    // Act / Assert
    expect(() => historyBound(machine, OPTIONS)).toThrow(/: Reset overwrites the counter \$\.step\.iteration$/);
  });

  it('fails on a Map whose items have no bound', () => {
    const machine: AslMachine = {
      StartAt: 'Each',
      States: {
        Each: {
          Type: 'Map',
          ItemsPath: '$.unbounded',
          ItemProcessor: { StartAt: 'One', States: { One: { Type: 'Succeed' } } },
          End: true,
        },
      },
    };

    expect(() => historyBound(machine, OPTIONS)).toThrow('Map Each: no bound on the items of ItemsPath $.unbounded');
  });

  it('counts Maps that share an items bound as if every item went to the Map whose item costs most', () => {
    // Arrange: two Maps over the same list; an item of Costly passes one more state than an item of Cheap
    const machine: AslMachine = {
      StartAt: 'Cheap',
      States: {
        Cheap: {
          Type: 'Map',
          ItemsPath: '$.pools',
          ItemProcessor: { StartAt: 'Done', States: { Done: { Type: 'Succeed' } } },
          Next: 'Costly',
        },
        Costly: {
          Type: 'Map',
          ItemsPath: '$.pools',
          ItemProcessor: {
            StartAt: 'Step',
            States: { Step: { Type: 'Pass', Next: 'Done' }, Done: { Type: 'Succeed' } },
          },
          End: true,
        },
      },
    };
    const shared = { ...OPTIONS, sharedMapItems: { '$.pools': 10 } };
    const separate = { ...OPTIONS, mapItems: { ...OPTIONS.mapItems, '$.pools': 10 } };

    // Act
    const together = historyBound(machine, shared).events;
    const apart = historyBound(machine, separate).events;

    // Assert: 10 items at most, all in Costly (each MAP_ITERATION + PASS + SUCCEED), plus both Maps' own events
    const costly = E.MAP_ITERATION + E.PASS + E.SUCCEED;
    expect(together).toBe(E.EXECUTION + 2 * E.MAP + 10 * costly);
    expect(apart).toBe(E.EXECUTION + 2 * E.MAP + 10 * (E.MAP_ITERATION + E.SUCCEED) + 10 * costly);
  });
});
