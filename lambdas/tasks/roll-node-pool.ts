import { inheritConfigItems } from '../core/config/effective-config-items';
import type { Cluster, ConfigItems, NodePool } from '../core/model/cluster';
import { clusterRef } from '../core/model/cluster-ref';
import type { PoolProgress, RunRecord } from '../core/model/run';
import { planRollStep, type RollPlan } from '../core/rollout/plan-roll-step';
import { planKarpenterStep } from '../core/rollout/plan-karpenter-step';
import type { Budget } from '../core/karpenter/disruption-budget';
import { poolSnapshot, type PoolNode, type PoolSnapshot } from '../core/rollout/pool-snapshot';
import { finishedNodesToKeep, reconcilePool } from '../core/rollout/reconcile-pool';
import { rollPolicy, type RollPolicy } from '../core/rollout/roll-policy';
import {
  IN_PROCESS_WAIT_SECONDS,
  describeRoll,
  rollWaitSeconds,
  type RollActions,
} from '../core/rollout/roll-step-report';
import { RollStepOutput, type RolloutState } from '../contracts/cluster-update';
import { CLM_METRICS } from '../contracts/metrics';
import { GENERAL_ERROR_TYPE } from '../core/status/problems';
import { defineTask, type PortsFor } from './define-task';
import { openStep } from './step/open-step';
import { waitWhileRefused } from './roll/await-drain-change';
import { stepThroughShortWaits } from './roll/roll-invocation';
import { checkHealth } from './roll/health-check';
import { gateRoll, stopStep } from './roll/roll-gate';
import { RolloutPayload } from './step/payloads';
import type { RollContext } from './roll/roll-actions';
import { karpenterBudget, observePool } from './roll/observe-pool';
import { updateRun, type RunRef } from './step/run-record';
import { removalPolicy, removalProgress, removedPool } from './roll/pool-removal';
import { trackPdbBlocks } from '../core/rollout/pdb-block-spells';
import { LaunchAllowance } from './launches/launch-allowance';
import { act } from './roll/act-on-plan';
import { renewPool, repairOutsideWindows } from './roll/renew-pool';
import { announceRoll } from './roll/announce-roll';
import { waitingOnLaunches } from './roll/launch-failures';

const PORTS = {
  pools: 'write',
  kube: 'write',
  alarms: 'read',
  progress: 'write',
  artifacts: 'read',
  clock: 'read',
  registry: 'read',
  launches: 'write',
  events: 'write',
} as const;
type RollPorts = PortsFor<typeof PORTS>;

/**
 * One step of rolling a pool: observe the pool and its nodes, plan (core/rollout/plan-roll-step.ts), act (scale,
 * mark, cordon, drain passes, terminate), persist progress, and say how long to wait. Reentrant: what is finished
 * is in the run record and in the cluster (labels, taints, drain-start annotations), so a new execution picks up here.
 */
export async function rollNodePool(
  input: RolloutState,
  ports: RollPorts,
  deadline = ports.clock.now() + IN_PROCESS_WAIT_SECONDS * 1000,
): Promise<RollStepOutput> {
  const ref: RunRef = { clusterId: input.clusterId, targetVersion: input.targetVersion, holder: input.holder };
  const iteration = (input.step?.iteration ?? 0) + 1;
  const { run, cluster, main, now } = await openStep(ports, ref, { artifacts: ['main'] });
  const removal = input.removal === true;
  const configured = cluster.nodePools.find((p) => p.name === input.pool);
  const finished = (message: string): RollStepOutput => ({
    status: 'DONE',
    waitSeconds: 1,
    message,
    pool: input.pool,
    iteration,
    replaced: 0,
    total: 0,
  });
  if (removal && configured) return finished(`Pool ${input.pool} is in the registry again: not removed`);
  if (!removal && !configured) return finished(`Pool ${input.pool} is no longer in the registry`);
  const pool = configured ?? removedPool(input.pool);
  const items = inheritConfigItems(main.configItems, pool.configItems);
  const observedPool = await observePool(ports.forCluster(cluster), clusterRef(cluster), pool, configured, removal);
  if ('missing' in observedPool) return finished(observedPool.missing);
  const { cp, nodes, poolState, view, karpenter, launchFailed } = observedPool;
  // Karpenter launches its own nodes (CreateFleet): only Auto Scaling pools take from the launch budget.
  const launches = karpenter ? undefined : launchAllowance(ports, cluster, pool.name, now);
  const observed = poolSnapshot(poolState, nodes);
  const renewal = renewPool(observed, { cluster, clusterItems: main.configItems, pool, items, nodes, run }, now);
  const context = {
    ...rollContext(cp, cluster, pool, items, now, removal, launches),
    lostAfterMs: renewal.settings.repairAfterMs,
  };
  // A pool being removed is outdated as a whole: every node goes, none comes back.
  const snapshot = removal ? allOutdated(observed) : renewal.snapshot;
  await recordProblems(ports, cluster.id, pool.name, removal ? [] : renewal.notes, now, launchFailed.problems);
  const pools = cluster.nodePools.length + (removal ? 1 : 0);
  const progress = await startOrContinue(ports, ref, context, run, snapshot, pools);
  const budget = karpenter ? karpenterBudget(view?.nodePool, snapshot, removal, now) : undefined;
  const planned = waitingOnLaunches(planStep(snapshot, progress, context, budget), launchFailed.waitingFor);
  const waitingForHooks = (n: PoolNode) => progress.nodes[n.instanceId]?.phase === 'pre-drain';
  const anyWindow = repairOutsideWindows(snapshot, progress, renewal.settings);
  const gate = await gateRoll(ports, cluster, items, planned, now, waitingForHooks, anyWindow);
  if (gate.stop) return stopStep(ports, ref, pool.name, progress, gate.stop, iteration);
  const health = await checkHealth(cp, context.policy, snapshot, progress, gate.plan, now);
  const { plan, acted, figures } = await act(context, health, snapshot);
  await recordProblems(ports, cluster.id, pool.name, acted.problems, now);
  const replacedBefore = run.pools[pool.name]?.replaced ?? 0;
  const output = await recordStep(ports, ref, {
    pool,
    plan,
    acted,
    snapshot,
    policy: context.policy,
    now,
    iteration,
    replacedBefore,
  });
  const counted = { ...output, ...figures };
  return waitWhileRefused(ports, cp.kube, { clusterId: cluster.id, deadline }, counted, acted, context.policy);
}

function allOutdated(snapshot: PoolSnapshot): PoolSnapshot {
  return { ...snapshot, nodes: snapshot.nodes.map((n) => ({ ...n, outdated: true })) };
}

/** The launches one step of the cluster's pool may cause, from its account and region's budget. */
function launchAllowance(ports: RollPorts, cluster: Cluster, pool: string, now: number): LaunchAllowance {
  const scope = { account: cluster.infrastructureAccount, region: cluster.region, claimant: `${cluster.id}/${pool}` };
  return new LaunchAllowance(ports.launches, scope, ports.clock, now);
}

/** The plan of this step: the Karpenter way when the pool has a disruption budget, the Auto Scaling way otherwise. */
function planStep(snapshot: PoolSnapshot, progress: PoolProgress, context: RollContext, budget?: Budget): RollPlan {
  if (context.removal && snapshot.nodes.length === 0) return { done: true, mark: [], cordon: [], drain: [] };
  return budget
    ? planKarpenterStep(snapshot, progress, context.policy, budget, context.now)
    : planRollStep(snapshot, progress, context.policy, context.now);
}

/**
 * RollNodePool's invocation: steps on through short waits, in the same Lambda (roll/roll-invocation.ts), then announces
 * what the pool's progress says and puts the roll's estimated end on the output (roll/announce-roll.ts).
 */
export async function rollNodePoolInvocation(input: RolloutState, ports: RollPorts): Promise<RollStepOutput> {
  const output = await stepThroughShortWaits(input, ports.clock, (state, deadline) =>
    rollNodePool(state, ports, deadline),
  );
  return announceRoll(ports, input, output);
}

function rollContext(
  cp: RollContext['cp'],
  cluster: Cluster,
  pool: NodePool,
  items: ConfigItems,
  now: number,
  removal: boolean,
  launches: LaunchAllowance | undefined,
): RollContext {
  const policy = rollPolicy(pool, items, cluster.id);
  return {
    cp,
    target: clusterRef(cluster),
    pool,
    policy: removal ? removalPolicy(policy) : policy,
    now,
    ...(removal ? { removal } : {}),
    ...(launches ? { launches } : {}),
  };
}

/**
 * The pool's progress with what the world shows folded in. On the first step it is persisted first (the base capacity
 * before the first scale-out, so a restart never adds surge twice), and a pool being removed is marked for
 * decommission as CLM's PrepareForRemoval does (MinSize 0, the cluster-autoscaler tag removed).
 */
async function startOrContinue(
  ports: RollPorts,
  ref: RunRef,
  context: RollContext,
  run: RunRecord,
  snapshot: PoolSnapshot,
  poolsInCluster: number,
): Promise<PoolProgress> {
  const { pool, now, removal } = context;
  const stored = run.pools[pool.name] ?? (removal ? removalProgress(now) : undefined);
  const keep = finishedNodesToKeep(poolsInCluster);
  const progress = reconcilePool(stored, snapshot, now, run.learnedBootMs?.[pool.name], keep);
  if (run.pools[pool.name]) return progress;
  if (removal) await context.cp.pools.markForDecommission(context.target, pool.name);
  await updateRun(ports, ref, (r) => ({
    ...r,
    phase: `${removal ? 'RemoveDeletedPools' : 'RollNodePool'} ${pool.name}`,
    pools: { ...r.pools, [pool.name]: progress },
  }));
  return progress;
}

/** Problems to record without stopping the roll (a node terminated with volumes still attached). */
async function recordProblems(
  ports: RollPorts,
  clusterId: string,
  pool: string,
  problems: readonly string[] | undefined,
  now: number,
  more: readonly string[] = [],
): Promise<void> {
  for (const detail of [...(problems ?? []), ...more])
    await ports.progress.recordProblem(
      clusterId,
      { type: GENERAL_ERROR_TYPE, title: `RollNodePool ${pool}: ${detail}` },
      now,
    );
}

/** The longest drain of the nodes this step terminated (terminatedAt = now), in seconds. */
function drainSecondsOf(progress: PoolProgress, now: number): { drainSeconds?: number } {
  const drains = Object.values(progress.nodes)
    .filter((n) => n.terminatedAt === now && !n.surplus && n.drainStartedAt !== undefined)
    .map((n) => (now - n.drainStartedAt!) / 1000);
  return drains.length ? { drainSeconds: Math.max(...drains) } : {};
}

interface StepResult {
  readonly pool: NodePool;
  readonly plan: RollPlan;
  readonly acted: RollActions;
  readonly snapshot: PoolSnapshot;
  readonly policy: RollPolicy;
  readonly now: number;
  readonly iteration: number;
  /** Replaced nodes the run record held before this step. */
  readonly replacedBefore: number;
}

/** Store the pool's progress after the step and tell the state machine how long to wait. */
async function recordStep(ports: RollPorts, ref: RunRef, step: StepResult): Promise<RollStepOutput> {
  const { pool, plan, acted, now } = step;
  const message = describeRoll(pool, acted.progress, plan, acted.blocked);
  const blocked = acted.blocked[0];
  // The same block as the last step: it has lasted since then (the back-off grows); a new or changed one starts now.
  const blockedSince =
    blocked === undefined
      ? undefined
      : blocked === acted.progress.blockedBy
        ? (acted.progress.blockedSince ?? now)
        : now;
  const { blockedSince: _previous, ...before } = acted.progress;
  const launched = (plan.scaleTo !== undefined && plan.scaleTo > step.snapshot.desired) || acted.replacements > 0;
  const forced = Object.values(acted.progress.nodes).some((n) => n.lastForcedAt === now);
  const pdbBlocks = trackPdbBlocks(acted.progress.pdbBlocks, acted.blocked, now, { forced, done: plan.done });
  const progress: PoolProgress = {
    ...before,
    status: plan.done ? 'done' : 'rolling',
    steps: acted.progress.steps + 1,
    message,
    ...(plan.done ? { completedAt: now } : {}),
    blockedBy: blocked,
    ...(blockedSince !== undefined ? { blockedSince } : {}),
    ...(launched ? { launchedAt: now } : {}),
    ...(pdbBlocks.length ? { pdbBlocks } : {}),
  };
  await updateRun(ports, ref, (r) => ({ ...r, pools: { ...r.pools, [pool.name]: progress } }));
  return {
    status: plan.done ? 'DONE' : 'IN_PROGRESS',
    waitSeconds: plan.done ? 1 : rollWaitSeconds(plan, { ...acted, progress }, step.snapshot, step.policy, now),
    message,
    pool: pool.name,
    iteration: step.iteration,
    replaced: progress.replaced,
    total: progress.total,
    replacedNow: Math.max(0, progress.replaced - step.replacedBefore),
    ...drainSecondsOf(progress, now),
    ...(acted.blocked[0] ? { blockedBy: acted.blocked[0] } : {}),
  };
}

export const task = defineTask({
  name: 'RollNodePool',
  description: 'Takes one step of a node pool roll',
  input: RolloutPayload,
  output: RollStepOutput,
  ports: PORTS,
  // A step may wait in process up to IN_PROCESS_WAIT_SECONDS (10 min) while PDBs refuse its drain, and most of a
  // roll's Lambda time is such waiting, billed by memory: 256 MB, not the default 512, halves it. Loaded with its
  // ports' SDK clients the handler holds 74 MB (`npm run bench -- lambda`, "max RSS"); a step's data (the pool, the
  // pods of the nodes it drains, the PDBs) is some MB even at 200 nodes (a Node with its image list is 10-20 KB).
  lambda: { memoryMb: 256, timeoutSeconds: 900, roll: true },
  metrics: (output) => [
    { name: CLM_METRICS.nodesReplaced, value: output.replacedNow ?? 0 },
    { name: CLM_METRICS.drainsBlocked, value: output.blockedBy ? 1 : 0 },
    ...(output.drainSeconds !== undefined
      ? [{ name: CLM_METRICS.drainSeconds, value: output.drainSeconds, unit: 'Seconds' as const }]
      : []),
    ...(output.launchesDeferred ? [{ name: CLM_METRICS.launchesDeferred, value: output.launchesDeferred }] : []),
    ...(output.scalingThrottled ? [{ name: CLM_METRICS.scalingThrottled, value: output.scalingThrottled }] : []),
  ],
  step: (payload, ports) => rollNodePoolInvocation(payload.state, ports),
});
