import type { NodePool } from '../model/cluster';
import type { NodeProgress, PoolProgress } from '../model/run';
import { inheritConfigItems } from '../config/effective-config-items';
import { drainPass } from '../rollout/drain-node';
import { planRollStep, outdatedNodes, type RollPlan } from '../rollout/plan-roll-step';
import {
  DRAIN_START_ANNOTATION,
  LAST_FORCED_ANNOTATION,
  LIFECYCLE_LABEL,
  decommissionTaint,
  isMarked,
  poolSnapshot,
  type PoolNode,
  type PoolSnapshot,
} from '../rollout/pool-snapshot';
import { rollPolicy, type RollPolicy } from '../rollout/roll-policy';
import type { ClusterPorts, Ports } from '../../ports/ports';
import type { ClusterRef } from '../../ports/node-pool-backend';
import type { RollStepOutput, RolloutState } from '../../contracts/cluster-update';
import { getJson, type MainArtifact } from './artifacts';
import { clusterRef, loadRun, loadRunCluster, renewLease, updateRun } from './run-state';

const DEFAULT_BOOT_POLL_SECONDS = 15;

/**
 * One step of rolling a pool: observe the pool and its nodes, plan, act (scale, mark, cordon, drain
 * passes, terminate), persist progress, and say how long to wait. Reentrant: what is finished is in the
 * run record and in the cluster (labels, taints, drain-start annotations), so a new execution picks up here.
 */
export async function rollNodePool(input: RolloutState, ports: Ports): Promise<RollStepOutput> {
  const ref = { clusterId: input.clusterId, targetVersion: input.targetVersion, holder: input.holder };
  const iteration = (input.step?.iteration ?? 0) + 1;
  await renewLease(ports, ref);
  const run = await loadRun(ports, ref);
  const { cluster } = await loadRunCluster(ports, ref);
  const pool = cluster.nodePools.find((p) => p.name === input.pool);
  const main = await getJson<MainArtifact>(ports.artifacts, run.artifacts.main ?? '');
  if (!pool)
    return {
      status: 'DONE',
      waitSeconds: 1,
      message: `Pool ${input.pool} is no longer in the registry`,
      iteration,
      replaced: 0,
      total: 0,
    };
  const policy = rollPolicy(pool, inheritConfigItems(main.configItems, pool.configItems), cluster.id);
  const cp = ports.forCluster(cluster);
  const target = clusterRef(cluster);
  const now = ports.clock.now();

  const poolState = await cp.pools.getPool(target, pool.name);
  if (!poolState)
    return {
      status: 'DONE',
      waitSeconds: 1,
      message: `Pool ${pool.name} has no Auto Scaling group`,
      iteration,
      replaced: 0,
      total: 0,
    };
  const snapshot = poolSnapshot(poolState, await cp.kube.listNodes());

  let progress = reconcile(run.pools[pool.name], snapshot, now, run.learnedBootMs?.[pool.name]);
  if (!run.pools[pool.name]) {
    // Persist the base capacity before the first scale-out, so a restart never adds surge twice.
    await updateRun(ports, ref, (r) => ({
      ...r,
      phase: `RollNodePool ${pool.name}`,
      pools: { ...r.pools, [pool.name]: progress },
    }));
  }

  const plan = planRollStep(snapshot, progress, policy, now);
  const acted = plan.done
    ? { progress, blocked: [] as string[], terminatingSeconds: 0, terminated: 0, replacements: 0 }
    : await act(cp, target, pool, plan, snapshot, progress, policy, now);
  progress = acted.progress;
  const done = plan.done;
  const waitSeconds = done ? 1 : waitFor(plan, acted, progress, snapshot, policy, now);
  const message = describe(pool, progress, plan, acted.blocked, done);
  progress = {
    ...progress,
    status: done ? 'done' : 'rolling',
    steps: progress.steps + 1,
    message,
    ...(done ? { completedAt: now } : {}),
    blockedBy: acted.blocked[0],
  };
  const finalProgress = progress;
  await updateRun(ports, ref, (r) => ({ ...r, pools: { ...r.pools, [pool.name]: finalProgress } }));
  return {
    status: done ? 'DONE' : 'IN_PROGRESS',
    waitSeconds,
    message,
    iteration,
    replaced: progress.replaced,
    total: progress.total,
    ...(acted.blocked[0] ? { blockedBy: acted.blocked[0] } : {}),
  };
}

/** Fold what the world shows into the stored progress: nodes gone count as replaced; learn boot times. */
function reconcile(
  stored: PoolProgress | undefined,
  snapshot: PoolSnapshot,
  now: number,
  learnedBootMs?: number,
): PoolProgress {
  const alive = new Set(snapshot.nodes.map((n) => n.instanceId));
  const base: PoolProgress = stored ?? {
    status: 'rolling',
    total: 0,
    replaced: 0,
    nodes: {},
    steps: 0,
    baseDesired: snapshot.desired,
    startedAt: now,
    ...(learnedBootMs !== undefined ? { bootEstimateMs: learnedBootMs } : {}),
  };
  const nodes: Record<string, NodeProgress> = { ...base.nodes };
  let replaced = base.replaced;
  let pairingNodes = base.pairingNodes ?? 0;
  for (const [id, node] of Object.entries(nodes)) {
    if (node.state !== 'terminated' && !alive.has(id)) {
      nodes[id] = { ...node, state: 'terminated', terminatedAt: now };
      if (node.surplus) pairingNodes = Math.max(0, pairingNodes - 1);
      else replaced++;
    }
  }
  const launches: Record<string, number> = { ...(base.launches ?? {}) };
  let bootEstimateMs = base.bootEstimateMs;
  for (const n of snapshot.nodes) {
    if (n.outdated) continue;
    if (!n.ready && launches[n.instanceId] === undefined) launches[n.instanceId] = now;
    if (n.ready && launches[n.instanceId] !== undefined) {
      bootEstimateMs = Math.max(bootEstimateMs ?? 0, now - launches[n.instanceId]!);
      delete launches[n.instanceId];
    }
  }
  for (const id of Object.keys(launches)) if (!alive.has(id)) delete launches[id];
  const outdatedAlive = outdatedNodes(snapshot).length;
  return {
    ...base,
    nodes,
    replaced,
    ...(pairingNodes !== (base.pairingNodes ?? 0) ? { pairingNodes } : {}),
    total: Math.max(base.total, replaced + outdatedAlive),
    launches,
    ...(bootEstimateMs !== undefined ? { bootEstimateMs } : {}),
  };
}

interface Acted {
  readonly progress: PoolProgress;
  readonly blocked: string[];
  readonly terminatingSeconds: number;
  readonly terminated: number;
  /** Terminated without decrement: the Auto Scaling group launches a replacement for each. */
  readonly replacements: number;
}

async function act(
  cp: ClusterPorts,
  target: ClusterRef,
  pool: NodePool,
  plan: RollPlan,
  snapshot: PoolSnapshot,
  start: PoolProgress,
  policy: RollPolicy,
  now: number,
): Promise<Acted> {
  let progress = start;
  const taint = decommissionTaint(policy.noScheduleTaint && !pool.profile.includes('master'));
  for (const n of plan.mark) {
    if (!n.node || isMarked(n.node)) continue;
    const status = n.node.labels[LIFECYCLE_LABEL];
    await cp.kube.patchNode(n.node.name, {
      taints: [...n.node.taints.filter((t) => t.key !== taint.key), taint],
      ...(status === undefined || status === 'ready' ? { labels: { [LIFECYCLE_LABEL]: 'decommission-pending' } } : {}),
    });
  }
  if (plan.scaleTo !== undefined) await cp.pools.scale(target, pool.name, plan.scaleTo);

  const nodes: Record<string, NodeProgress> = { ...progress.nodes };
  for (const n of plan.cordon) {
    const existing = n.node?.annotations[DRAIN_START_ANNOTATION];
    const drainStartedAt = existing && !Number.isNaN(Date.parse(existing)) ? Date.parse(existing) : now;
    const lastForced = Date.parse(n.node?.annotations[LAST_FORCED_ANNOTATION] ?? '');
    if (n.node) {
      await cp.kube.patchNode(n.node.name, {
        unschedulable: true,
        labels: { [LIFECYCLE_LABEL]: 'draining' },
        ...(existing ? {} : { annotations: { [DRAIN_START_ANNOTATION]: new Date(now).toISOString() } }),
      });
    }
    nodes[n.instanceId] = {
      instanceId: n.instanceId,
      ...(n.node ? { nodeName: n.node.name } : {}),
      availabilityZone: n.availabilityZone,
      state: 'draining',
      cordonedAt: now,
      drainStartedAt,
      ...(Number.isNaN(lastForced) ? {} : { lastForcedAt: lastForced }),
      ...(n.outdated ? {} : { surplus: true }),
    };
  }

  const blocked: string[] = [];
  let terminatingSeconds = 0;
  let terminated = 0;
  let replacements = 0;
  let surplusRemoved = 0;
  let outdatedLeft = outdatedNodes(snapshot).length;
  const base = progress.baseDesired ?? snapshot.desired;
  let desired = plan.scaleTo ?? snapshot.desired;
  for (const n of [...plan.drain, ...plan.cordon]) {
    const node = nodes[n.instanceId];
    if (!node || node.state === 'terminated') continue;
    let empty = true;
    if (n.node) {
      const outcome = await drainPass(cp.kube, n.node.name, node, policy.drain, now);
      nodes[n.instanceId] = outcome.progress;
      empty = outcome.empty;
      blocked.push(...outcome.blocked);
      terminatingSeconds = Math.max(terminatingSeconds, outcome.terminatingSeconds);
    }
    if (!empty) continue;
    // CLM: decrement only once the capacity above base covers the outdated nodes left (with surge 3, the
    // last 3); before that the ASG's replacement is the next surge node. Without surge (spot) never
    // decrement, and extra nodes added for same-AZ pairing are taken back the same way.
    const decrement = desired - base >= outdatedLeft;
    await cp.pools.terminate(target, n.instanceId, decrement);
    if (decrement) desired--;
    else replacements++;
    nodes[n.instanceId] = { ...nodes[n.instanceId]!, state: 'terminated', terminatedAt: now };
    if (nodes[n.instanceId]!.surplus) {
      surplusRemoved++;
    } else {
      outdatedLeft--;
      terminated++;
    }
  }
  progress = {
    ...progress,
    nodes,
    replaced: progress.replaced + terminated,
    ...(plan.pairingScaleOut || surplusRemoved
      ? { pairingNodes: Math.max(0, (progress.pairingNodes ?? 0) + (plan.pairingScaleOut ?? 0) - surplusRemoved) }
      : {}),
    ...(terminated > 0 && progress.firstReplacedAt === undefined ? { firstReplacedAt: now } : {}),
  };
  return { progress, blocked, terminatingSeconds, terminated, replacements };
}

/** Sleep until the first thing we wait for can have happened: a pod gone, a node booted, a PDB re-checked. */
function waitFor(
  plan: RollPlan,
  acted: Acted,
  progress: PoolProgress,
  snapshot: PoolSnapshot,
  policy: RollPolicy,
  now: number,
): number {
  const candidates: number[] = [];
  if (acted.terminatingSeconds > 0) candidates.push(acted.terminatingSeconds + 1);
  if (acted.blocked.length > 0) candidates.push(Math.ceil(policy.drain.pollIntervalMs / 1000));
  const booting = snapshot.nodes.filter((n: PoolNode) => !n.outdated && !n.ready);
  if (booting.length > 0 || plan.scaleTo !== undefined || acted.replacements > 0) {
    const launchedAt = Math.min(now, ...booting.map((n) => progress.launches?.[n.instanceId] ?? now));
    // Sleep until the learned boot time is up; once it has passed (a slower boot), poll at the default pace.
    const remainingMs = progress.bootEstimateMs !== undefined ? launchedAt + progress.bootEstimateMs - now : 0;
    candidates.push(remainingMs > 0 ? Math.ceil(remainingMs / 1000) + 1 : DEFAULT_BOOT_POLL_SECONDS);
  }
  // Terminated with a decrement: nothing boots, only the instance shuts down; a boot-long sleep here was
  // the last batch's idle time (measured: 80 s of a 511 s roll of 9 nodes).
  if (acted.terminated > acted.replacements) candidates.push(DEFAULT_BOOT_POLL_SECONDS);
  if (progress.firstReplacedAt !== undefined && now < progress.firstReplacedAt + policy.canarySoakMs) {
    candidates.push(Math.ceil((progress.firstReplacedAt + policy.canarySoakMs - now) / 1000));
  }
  const wait = candidates.length ? Math.min(...candidates) : 5;
  return Math.min(Math.max(wait, 1), 300);
}

function describe(
  pool: NodePool,
  progress: PoolProgress,
  plan: RollPlan,
  blocked: readonly string[],
  done: boolean,
): string {
  const head = `${pool.name}: ${progress.replaced}/${progress.total} nodes replaced`;
  if (done) return `${head}; pool is up to date`;
  const draining = Object.values(progress.nodes)
    .filter((n) => n.state === 'draining')
    .map((n) => n.nodeName ?? n.instanceId);
  const parts = [head];
  if (draining.length) parts.push(`draining ${draining.join(', ')}`);
  if (blocked.length)
    parts.push(`blocked by ${blocked[0]}${blocked.length > 1 ? ` (+${blocked.length - 1} more)` : ''}`);
  if (plan.waitingFor) parts.push(`waiting for ${plan.waitingFor}`);
  return parts.join('; ');
}
