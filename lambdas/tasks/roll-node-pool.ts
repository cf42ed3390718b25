import { inheritConfigItems } from '../core/config/effective-config-items';
import type { NodePool } from '../core/model/cluster';
import { clusterRef } from '../core/model/cluster-ref';
import type { PoolProgress } from '../core/model/run';
import { planRollStep, type RollPlan } from '../core/rollout/plan-roll-step';
import { poolSnapshot, type PoolSnapshot } from '../core/rollout/pool-snapshot';
import { reconcilePool } from '../core/rollout/reconcile-pool';
import { rollPolicy, type RollPolicy } from '../core/rollout/roll-policy';
import { describeRoll, noActions, rollWaitSeconds, type RollActions } from '../core/rollout/roll-step-report';
import { RollStepOutput, type RolloutState } from '../contracts/cluster-update';
import { CLM_METRICS } from '../contracts/metrics';
import { defineTask, type PortsFor } from './define-task';
import { openStep } from './kit/open-step';
import { gateRoll, stopStep } from './kit/roll-gate';
import { RolloutPayload } from './kit/payloads';
import { rollActions, type RollContext } from './kit/roll-actions';
import { updateRun, type RunRef } from './kit/run-record';

const PORTS = {
  pools: 'write',
  kube: 'write',
  progress: 'write',
  artifacts: 'read',
  clock: 'read',
  registry: 'read',
} as const;
type RollPorts = PortsFor<typeof PORTS>;

/**
 * One step of rolling a pool: observe the pool and its nodes, plan (core/rollout/plan-roll-step.ts), act (scale,
 * mark, cordon, drain passes, terminate), persist progress, and say how long to wait. Reentrant: what is finished
 * is in the run record and in the cluster (labels, taints, drain-start annotations), so a new execution picks up here.
 */
export async function rollNodePool(input: RolloutState, ports: RollPorts): Promise<RollStepOutput> {
  const ref: RunRef = { clusterId: input.clusterId, targetVersion: input.targetVersion, holder: input.holder };
  const iteration = (input.step?.iteration ?? 0) + 1;
  const { run, cluster, main, now } = await openStep(ports, ref, { artifacts: ['main'] });
  const pool = cluster.nodePools.find((p) => p.name === input.pool);
  const finished = (message: string): RollStepOutput => ({
    status: 'DONE',
    waitSeconds: 1,
    message,
    pool: input.pool,
    iteration,
    replaced: 0,
    total: 0,
  });
  if (!pool) return finished(`Pool ${input.pool} is no longer in the registry`);
  const cp = ports.forCluster(cluster);
  const items = inheritConfigItems(main.configItems, pool.configItems);
  const context: RollContext = {
    cp,
    target: clusterRef(cluster),
    pool,
    policy: rollPolicy(pool, items, cluster.id),
    now,
  };
  const poolState = await cp.pools.getPool(context.target, pool.name);
  if (!poolState) return finished(`Pool ${pool.name} has no Auto Scaling group`);
  const snapshot = poolSnapshot(poolState, await cp.kube.listNodes());

  const progress = reconcilePool(run.pools[pool.name], snapshot, now, run.learnedBootMs?.[pool.name]);
  if (!run.pools[pool.name]) {
    // Persist the base capacity before the first scale-out, so a restart never adds surge twice.
    await updateRun(ports, ref, (r) => ({
      ...r,
      phase: `RollNodePool ${pool.name}`,
      pools: { ...r.pools, [pool.name]: progress },
    }));
  }
  const gate = await gateRoll(ports, cluster, items, planRollStep(snapshot, progress, context.policy, now), now);
  if (gate.stop) return stopStep(ports, ref, pool.name, progress, gate.stop, iteration);
  const { plan } = gate;
  const acted = plan.done ? noActions(progress) : await rollActions(context, plan, snapshot, progress);
  const replacedBefore = run.pools[pool.name]?.replaced ?? 0;
  return recordStep(ports, ref, {
    pool,
    plan,
    acted,
    snapshot,
    policy: context.policy,
    now,
    iteration,
    replacedBefore,
  });
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
  const progress: PoolProgress = {
    ...before,
    status: plan.done ? 'done' : 'rolling',
    steps: acted.progress.steps + 1,
    message,
    ...(plan.done ? { completedAt: now } : {}),
    blockedBy: blocked,
    ...(blockedSince !== undefined ? { blockedSince } : {}),
    ...(launched ? { launchedAt: now } : {}),
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
  metrics: (output) => [
    { name: CLM_METRICS.nodesReplaced, value: output.replacedNow ?? 0 },
    { name: CLM_METRICS.drainsBlocked, value: output.blockedBy ? 1 : 0 },
    ...(output.drainSeconds !== undefined
      ? [{ name: CLM_METRICS.drainSeconds, value: output.drainSeconds, unit: 'Seconds' as const }]
      : []),
  ],
  step: (payload, ports) => rollNodePool(payload.state, ports),
});
