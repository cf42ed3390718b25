/**
 * Workflow budgets (DESIGN.md §8), measured by running the deployed ASL in process (local executor) over
 * the simulated world, exactly as `clm provision --simulate` does:
 *  - state transitions of a no-op check (≤ 10), of an update without node changes (≤ 60), and per replaced
 *    node on top of that (≤ 12);
 *  - the most history events of any single execution (< 20,000), including a drain a PDB blocks for 14 h;
 *  - the roll time of an isolated pool of N nodes against ⌈N / surge⌉ × (boot + drain + terminate) (≤ 1.15×);
 *  - AWS and Kubernetes API calls per replaced node (made by RollStep tasks, counted by the world).
 * The isolated roll: one cluster, a worker pool of 9 nodes (surge 3), a 9-replica Deployment without PDB,
 * timings boot 90 s, pod termination 30 s, instance termination 30 s; canary off (and, reported apart, on).
 */
import type { BenchResult } from './bench-result';
import type { RunFigures } from './simulated-session';
import { withBudget } from './bench-result';
import type { ExamplesRoll, IsolatedRoll } from './simulation-scenarios';
import { POOL_SIZE, SURGE, TIMINGS, examplesRoll, isolatedRoll, longDrain, rollSeconds } from './simulation-scenarios';

export const name = 'simulation';

/** State transitions of a no-op check, of an update without node changes, per replaced node, and of a creation. */
function transitionFigures(plain: IsolatedRoll): BenchResult[] {
  const replaced = plain.roll.replaced;
  const perNode = (plain.roll.transitions - plain.noNodeChanges.transitions) / replaced;
  return [
    withBudget({
      name: 'state transitions, no-op check',
      value: plain.noop.transitions,
      unit: 'transitions',
      budget: 10,
      note: `decision ${plain.noop.decision}`,
    }),
    withBudget({
      name: 'state transitions, update without node changes',
      value: plain.noNodeChanges.transitions,
      unit: 'transitions',
      budget: 60,
      note: 'one manifest added; every stack NO_CHANGES; one rollout child per pool',
    }),
    withBudget({
      name: 'state transitions per replaced node',
      value: perNode,
      unit: 'transitions',
      budget: 12,
      note: `(${plain.roll.transitions} − ${plain.noNodeChanges.transitions}) / ${replaced} nodes; includes the pool stack update polls`,
    }),
    {
      name: 'state transitions, cluster creation',
      value: plain.create.transitions,
      unit: 'transitions',
      note: 'stacks created and polled, API server wait; informative',
    },
  ];
}

/** State transitions per replaced node of kube-test, whose stateful pods pair old and new nodes by AZ. */
function examplesTransitionFigure(examples: ExamplesRoll): BenchResult {
  const perNode = (examples.roll.transitions - examples.noNodeChanges.transitions) / examples.roll.replaced;
  return withBudget({
    name: 'state transitions per replaced node, examples kube-test',
    value: perNode,
    unit: 'transitions',
    budget: 12,
    note: `(${examples.roll.transitions} − ${examples.noNodeChanges.transitions}) / ${examples.roll.replaced}; a node with volumes waits for a new node in its AZ`,
  });
}

/** The most history events of any execution measured, the PDB-blocked drain included. */
function historyFigure(runs: readonly IsolatedRoll[], drain: RunFigures, examples: ExamplesRoll): BenchResult {
  const maxHistory = Math.max(
    ...runs.flatMap((m) => [m.create, m.noop, m.noNodeChanges, m.roll]).map((r) => r.maxHistoryEvents),
    drain.maxHistoryEvents,
    examples.roll.maxHistoryEvents,
  );
  const drainMinutes = Math.round(rollSeconds(drain.pools.workers) / 60);
  return withBudget({
    name: 'max history events of one execution',
    value: maxHistory,
    unit: 'events',
    budget: 19_999,
    note: `every run incl. a PDB-blocked drain of ${drainMinutes} min (${drain.transitions} transitions)`,
  });
}

/** The roll time of the isolated pool against ⌈N / surge⌉ × (boot + drain + terminate), without and with canary. */
function rollTimeFigures(plain: IsolatedRoll, canary: IsolatedRoll): BenchResult[] {
  const batch = TIMINGS.instanceBootSeconds + TIMINGS.podTerminationSeconds + TIMINGS.instanceTerminateSeconds;
  const lowerBound = Math.ceil(POOL_SIZE / SURGE) * batch;
  const plainSeconds = rollSeconds(plain.roll.pools.workers);
  const canarySeconds = rollSeconds(canary.roll.pools.workers);
  return [
    withBudget({
      name: `roll time ratio, ${POOL_SIZE} nodes surge ${SURGE}, no canary`,
      value: plainSeconds / lowerBound,
      unit: '×',
      budget: 1.15,
      note: `${plainSeconds} s vs ⌈${POOL_SIZE}/${SURGE}⌉ × (${TIMINGS.instanceBootSeconds}+${TIMINGS.podTerminationSeconds}+${TIMINGS.instanceTerminateSeconds}) = ${lowerBound} s; below 1: replacements boot while old instances shut down`,
    }),
    {
      name: `roll time ratio, ${POOL_SIZE} nodes surge ${SURGE}, canary (default)`,
      value: canarySeconds / lowerBound,
      unit: '×',
      note: `${canarySeconds} s; the canary adds a batch: ${(Math.ceil((POOL_SIZE - 1) / SURGE) + 1) * batch} s bound with it`,
    },
  ];
}

/** AWS and Kubernetes API calls per replaced node, made by RollStep tasks. */
function apiCallFigures(plain: IsolatedRoll): BenchResult[] {
  const replaced = plain.roll.replaced;
  const { aws, kube } = plain.roll.rollCalls;
  return [
    {
      name: 'AWS API calls per replaced node',
      value: aws / replaced,
      unit: 'calls',
      note: `${aws} by RollStep tasks for ${replaced} nodes (getPool, scale, terminate)`,
    },
    {
      name: 'Kubernetes API calls per replaced node',
      value: kube / replaced,
      unit: 'calls',
      note: `${kube} by RollStep tasks for ${replaced} nodes (list, patch, evict)`,
    },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const plain = await isolatedRoll(false);
  const canary = await isolatedRoll(true);
  const drain = await longDrain();
  const examples = await examplesRoll();
  return [
    ...transitionFigures(plain),
    historyFigure([plain, canary], drain, examples),
    ...rollTimeFigures(plain, canary),
    examplesTransitionFigure(examples),
    ...apiCallFigures(plain),
  ];
}
