/**
 * What the workflow costs, measured by running the deployed ASL in process (local executor) over the simulated
 * world, exactly as `clm provision --simulate` does. State transitions and history events are exact counts; times are
 * virtual (the simulated clock), except the simulation's own CPU. Targets from issue 14 and DESIGN.md §8:
 *  - first create: ≤ 40 transitions with simulator timings, ≤ 60 with AWS-like timings (bench/simulation-scenarios.ts
 *    PROFILES); a config change without node replacement ≤ 25; a no-op check ≤ 10;
 *  - per replaced node ≤ 3 transitions at N = 10, 50, 100, 200 workers (surge 3, no canary) with pods spread one per
 *    node, PDBs and a StatefulSet with volumes; the largest execution history; the roll time against the lower bound;
 *  - a drain a PDB blocks for 14 h: ≤ 300 transitions, and how long after the block lifted the roll noticed it.
 * docs/benchmarks.md explains each figure.
 */
import type { BenchResult } from './bench-result';
import { withBudget } from './bench-result';
import { taskMemoryMb } from '../lambdas/tasks/define-task';
import { task as rollNodePool } from '../lambdas/tasks/roll-node-pool';
import { API_CALL_SECONDS } from './simulated-session';
import { CENTS, USD_PER_GB_SECOND, USD_PER_TRANSITION, cents, runCost, usd } from './cost-model';
import type { RunFigures } from './simulated-session';
import type { ClusterLife, ExamplesRoll, LongDrain, Profile } from './simulation-scenarios';
import {
  PROFILES,
  SURGE,
  clusterLife,
  examplesRoll,
  longDrain,
  issueFormulaSeconds,
  rollLowerBoundSeconds,
  rollSeconds,
} from './simulation-scenarios';

export const name = 'simulation';

const SIZES = [10, 50, 100, 200] as const;

/** Transitions spent in Wait states and the task and Choice around them (3 per poll). */
function pollingShare(run: RunFigures): string {
  return `${run.polls} polls (${Math.round(((3 * run.polls) / run.transitions) * 100)} % of the transitions)`;
}

function lifeFigures(profile: Profile, life: ClusterLife, createBudget: number): BenchResult[] {
  const minutes = (run: RunFigures) => Math.round(run.virtualMs / 60_000);
  return [
    withBudget({
      name: `first create, ${profile} timings`,
      value: life.create.transitions,
      unit: 'transitions',
      budget: createBudget,
      note: `${pollingShare(life.create)}; ${minutes(life.create)} virtual min`,
    }),
    costFigure(`cost of the first create, ${profile} timings`, life.create),
    withBudget({
      name: `config change without node replacement, ${profile} timings`,
      value: life.configChange.transitions,
      unit: 'transitions',
      budget: 25,
      note: 'manifests added; every stack NO_CHANGES; no pool has anything to roll (no Map, no child)',
    }),
  ];
}

/** A run's dollars: its transitions and its tasks' Lambda time (bench/cost-model.ts). */
function costFigure(name: string, run: RunFigures): BenchResult {
  const cost = runCost(run);
  return {
    name,
    value: cents(cost.usd),
    unit: CENTS,
    note: `${cost.note}; Lambda time: in-process waits + ${API_CALL_SECONDS} s per API call + the simulation's CPU`,
  };
}

function perNode(life: ClusterLife): number {
  return (life.roll.transitions - life.configChange.transitions) / life.roll.replaced;
}

/** Seconds the roll's RollNodePool invocations spent waiting in process (short waits, PDB-refused drains). */
function inProcessSeconds(run: RunFigures): number {
  return run.rollSteps.reduce((sum, s) => sum + (s.waitedSeconds ?? 0), 0);
}

function rollFigures(life: ClusterLife): BenchResult[] {
  const n = life.workers;
  const timings = PROFILES.simulator;
  const seconds = rollSeconds(life.roll.pools.workers);
  const bound = rollLowerBoundSeconds(n, timings);
  const issueFormula = issueFormulaSeconds(n, timings);
  return [
    withBudget({
      name: `per replaced node, N=${n}`,
      value: perNode(life),
      unit: 'transitions',
      budget: 3,
      note: `(${life.roll.transitions} − ${life.configChange.transitions}) / ${life.roll.replaced}; pool stack update, Map and child included; ${inProcessSeconds(life.roll)} s waited in RollNodePool (${Math.round(inProcessSeconds(life.roll) * ROLL_STEP_GB)} GB-s)`,
    }),
    withBudget({
      name: `largest execution history, roll N=${n}`,
      value: life.roll.maxHistoryEvents,
      unit: 'events',
      budget: 19_999,
    }),
    withBudget({
      name: `roll time / lower bound, N=${n}`,
      value: seconds / bound,
      unit: '×',
      budget: 1.03,
      note: `${seconds} s vs ⌈${n}/${SURGE}⌉ × (${timings.instanceBootSeconds}${timings.nodeReadySeconds ? ` + ${timings.nodeReadySeconds}` : ''} + ${timings.podTerminationSeconds}) = ${bound} s; vs issue 14's ⌈N/surge⌉ × boot + drain = ${issueFormula} s: ${(seconds / issueFormula).toFixed(3)}×`,
    }),
    withBudget({
      name: `run record, roll N=${n}`,
      value: life.roll.recordBytes / 1000,
      unit: 'KB',
      budget: 400,
      note: `the run's progress record at the end, as JSON: one DynamoDB item (400 KB at most); ${Object.keys(life.roll.pools.workers?.nodes ?? {}).length} of ${life.roll.replaced} replaced nodes kept in detail`,
    }),
    costFigure(`cost of the roll, N=${n}`, life.roll),
    {
      name: `simulation CPU, roll N=${n}`,
      value: Math.round(life.roll.cpuMs),
      unit: 'ms',
      note: `${life.roll.rollSteps.length} RollNodePool invocations; runner, tasks and world in this process`,
    },
  ];
}

/** Nodes Ready this long after they join (the kubelet's and the CNI's start on AWS; the simulator's default is 0). */
const NODE_READY_SECONDS = 20;

/**
 * The roll of 50 nodes when a new Node turns Ready 20 s after it joins: the boots the roll learns end when the Node
 * joins, so each wait for a batch ends a little early and the step looks again every 5 s until it is Ready (instead of
 * backing off by a quarter of the boot).
 */
async function readyGapFigure(): Promise<BenchResult> {
  const timings = { ...PROFILES.simulator, nodeReadySeconds: NODE_READY_SECONDS };
  const life = await clusterLife('simulator', 50, { nodeReadySeconds: NODE_READY_SECONDS });
  const seconds = rollSeconds(life.roll.pools.workers);
  const bound = rollLowerBoundSeconds(life.workers, timings);
  return withBudget({
    name: `roll time / lower bound, N=50, Nodes Ready ${NODE_READY_SECONDS} s after joining`,
    value: seconds / bound,
    unit: '×',
    budget: 1.03,
    note: `${seconds} s vs ⌈50/${SURGE}⌉ × (${timings.instanceBootSeconds} + ${NODE_READY_SECONDS} + ${timings.podTerminationSeconds}) = ${bound} s`,
  });
}

/** RollNodePool's memory, as its task declares it. */
const ROLL_STEP_GB = taskMemoryMb(rollNodePool) / 1024;

function drainFigures(drain: LongDrain): BenchResult[] {
  const acted = drain.roll.evictions.find((at) => at >= drain.liftedAt);
  const delay = acted !== undefined ? (acted - drain.liftedAt) / 1000 : Number.NaN;
  const blocked = drain.roll.rollSteps.filter((s) => s.blockedBy);
  const waited = drain.roll.rollSteps.reduce((sum, s) => sum + (s.waitedSeconds ?? 0), 0);
  const gbSeconds = waited * ROLL_STEP_GB;
  return [
    withBudget({
      name: '14 h PDB-blocked drain',
      value: drain.roll.transitions,
      unit: 'transitions',
      budget: 300,
      note: `${blocked.length} invocations over ${(drain.blockedSeconds / 3600).toFixed(1)} h blocked, each waiting in process ≤ 10 min; largest history ${drain.roll.maxHistoryEvents} events; ${usd(drain.roll.transitions * USD_PER_TRANSITION)} of transitions`,
    }),
    withBudget({
      name: '14 h PDB-blocked drain: block lifted → acted on',
      value: delay,
      unit: 's',
      budget: 60,
      note: 'from the PDB allowing evictions to the first eviction (the wait looks every drain_poll_interval, 30 s here)',
    }),
    {
      name: '14 h PDB-blocked drain: Lambda time waiting (whole roll)',
      value: Math.round(gbSeconds),
      unit: 'GB-s',
      note: `${Math.round(waited)} s in process at ${ROLL_STEP_GB * 1024} MB: ${usd(gbSeconds * USD_PER_GB_SECOND)} (arm64); with the transitions ${usd(gbSeconds * USD_PER_GB_SECOND + drain.roll.transitions * USD_PER_TRANSITION)} for the block`,
    },
  ];
}

function examplesFigure(examples: ExamplesRoll): BenchResult {
  const value = (examples.roll.transitions - examples.noNodeChanges.transitions) / examples.roll.replaced;
  return withBudget({
    name: 'per replaced node, examples kube-test',
    value,
    unit: 'transitions',
    budget: 12,
    note: `(${examples.roll.transitions} − ${examples.noNodeChanges.transitions}) / ${examples.roll.replaced}; 2 nodes, stateful pods paired by zone`,
  });
}

/** AWS and Kubernetes API calls per replaced node, made by RollStep tasks. */
function apiCallFigures(life: ClusterLife): BenchResult[] {
  const { replaced, rollCalls } = life.roll;
  return [
    {
      name: `AWS API calls per replaced node, N=${life.workers}`,
      value: rollCalls.aws / replaced,
      unit: 'calls',
      note: `${rollCalls.aws} by RollStep tasks (getPool, scale, terminate)`,
    },
    {
      name: `Kubernetes API calls per replaced node, N=${life.workers}`,
      value: rollCalls.kube / replaced,
      unit: 'calls',
      note: `${rollCalls.kube} by RollStep tasks (list, patch, evict)`,
    },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const lives: ClusterLife[] = [];
  for (const n of SIZES) lives.push(await clusterLife('simulator', n));
  const awsLike = await clusterLife('aws-like', SIZES[0]);
  const first = lives[0]!;
  results.push(
    withBudget({ name: 'no-op check', value: first.noop.transitions, unit: 'transitions', budget: 10 }),
    ...lifeFigures('simulator', first, 40),
    ...lifeFigures('aws-like', awsLike, 60),
  );
  for (const life of lives) results.push(...rollFigures(life));
  results.push(await readyGapFigure());
  results.push(
    withBudget({
      name: `per replaced node, N=${awsLike.workers}, aws-like timings`,
      value: perNode(awsLike),
      unit: 'transitions',
      budget: 3,
    }),
  );
  results.push(...drainFigures(await longDrain()), examplesFigure(await examplesRoll()), ...apiCallFigures(lives[1]!));
  return results;
}
