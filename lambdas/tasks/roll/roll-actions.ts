import type { NodePool } from '../../core/model/cluster';
import type { NodeProgress, PoolProgress } from '../../core/model/run';
import { outdatedNodes, type RollPlan, type TerminationLedger } from '../../core/rollout/plan-roll-step';
import {
  DRAIN_START_ANNOTATION,
  LAST_FORCED_ANNOTATION,
  LIFECYCLE_LABEL,
  decommissionTaint,
  isMarked,
  type PoolNode,
  type PoolSnapshot,
} from '../../core/rollout/pool-snapshot';
import type { RollPolicy } from '../../core/rollout/roll-policy';
import type { RollActions } from '../../core/rollout/roll-step-report';
import {
  LIFECYCLE_PHASE_ANNOTATION,
  hookVerdict,
  pendingHooks,
  type HookPhase,
} from '../../core/rollout/lifecycle-hooks';
import { attachmentsOf, detachVerdict } from '../../core/rollout/volume-detach';
import type { NodeInfo, VolumeAttachmentInfo } from '../../ports/kube-cluster';
import type { ClusterRef } from '../../ports/node-pool-backend';
import type { ClusterPorts } from '../../ports/ports';
import { RolloutError } from '../../shared/errors';
import { drainPass } from './drain-pass';
import { isLostNode } from '../../core/node-renewal/lost-node';
import { DEFAULT_REPAIR_AFTER_MS } from '../../core/node-renewal/renewal-settings';
import { scaleOut, terminateWithinBudget } from '../launches/budgeted-scaling';
import type { LaunchAllowance } from '../launches/launch-allowance';

/** What every action of one roll step works with. */
export interface RollContext {
  readonly cp: Pick<ClusterPorts, 'pools' | 'kube'>;
  readonly target: ClusterRef;
  readonly pool: NodePool;
  readonly policy: RollPolicy;
  readonly now: number;
  /** The pool left the registry: nodes also get CLM's no-replacement label (CLM §7.3 PrepareForRemoval). */
  readonly removal?: boolean;
  /** The launches this step may cause (Auto Scaling pools; launches/launch-allowance.ts). */
  readonly launches?: LaunchAllowance;
  /** How long NotReady makes a node lost (the pool's node_repair_after; core/node-renewal/lost-node.ts). */
  readonly lostAfterMs?: number;
}

/** CLM: on nodes of a pool being removed, so the cluster-lifecycle-controller makes no replacement. */
export const REPLACEMENT_STRATEGY_LABEL = 'cluster-lifecycle-controller.zalando.org/replacement-strategy';

/** Carry out a roll plan: mark, scale out, cordon, then a drain pass on each node and terminate those drained empty. */
export async function rollActions(
  context: RollContext,
  plan: RollPlan,
  snapshot: PoolSnapshot,
  progress: PoolProgress,
): Promise<RollActions> {
  await markNodes(context, plan.mark);
  let done = plan;
  if (plan.scaleTo !== undefined) {
    // The size before the roll (and the pairing nodes it will hold) go on the groups first: a retry whose progress
    // was lost reads them from there (core/rollout/pre-roll-size.ts).
    const pairing = plan.pairingScaleOut ? (progress.pairingNodes ?? 0) + plan.pairingScaleOut : undefined;
    if (!snapshot.preRollMarked || pairing !== undefined)
      await context.cp.pools.markPreRollSize(context.target, context.pool.name, pairing);
    // A scale-out AWS still throttled did not happen: the ledger and the pairing count go by what did.
    if ((await scaleOut(context, plan.scaleTo, snapshot.desired)) !== plan.scaleTo) {
      const { scaleTo: _planned, pairingScaleOut: _pairing, ...unscaled } = plan;
      done = unscaled;
      if (pairing !== undefined)
        await context.cp.pools.markPreRollSize(context.target, context.pool.name, progress.pairingNodes ?? 0);
    }
  }
  const nodes = await cordonNodes(context, plan.cordon, progress.nodes);
  const acted = await drainAndTerminate(context, done, snapshot, { ...progress, nodes });
  // Pairing nodes taken back: the marks say so once they are gone (never before, so a mark never counts too few).
  const held = (progress.pairingNodes ?? 0) + (done.pairingScaleOut ?? 0);
  if ((acted.progress.pairingNodes ?? 0) < held)
    await context.cp.pools.markPreRollSize(context.target, context.pool.name, acted.progress.pairingNodes ?? 0);
  return acted;
}

/** Taint outdated nodes and label them decommission-pending (CLM §7.2). */
async function markNodes(context: RollContext, mark: readonly PoolNode[]): Promise<void> {
  const taint = decommissionTaint(context.policy.noScheduleTaint && !context.pool.profile.includes('master'));
  for (const n of mark) {
    const labelled = !context.removal || n.node?.labels[REPLACEMENT_STRATEGY_LABEL] === 'none';
    if (!n.node || (isMarked(n.node) && labelled)) continue;
    const status = n.node.labels[LIFECYCLE_LABEL];
    await context.cp.kube.patchNode(n.node.name, {
      taints: [...n.node.taints.filter((t) => t.key !== taint.key), taint],
      labels: {
        ...(status === undefined || status === 'ready' ? { [LIFECYCLE_LABEL]: 'decommission-pending' } : {}),
        ...(context.removal ? { [REPLACEMENT_STRATEGY_LABEL]: 'none' } : {}),
      },
    });
  }
}

/**
 * Take the chosen nodes into the roll: cordon them and start the drain clock (kept from an earlier run's annotation,
 * never restarted). A node that carries pre-drain hook annotations is taken in (it holds its slot) but cordoned only
 * once they are gone (drainAndTerminate).
 */
async function cordonNodes(
  context: RollContext,
  cordon: readonly PoolNode[],
  known: PoolProgress['nodes'],
): Promise<Record<string, NodeProgress>> {
  const nodes: Record<string, NodeProgress> = { ...known };
  for (const n of cordon) {
    const entry: NodeProgress = {
      instanceId: n.instanceId,
      ...(n.node ? { nodeName: n.node.name } : {}),
      availabilityZone: n.availabilityZone,
      state: 'draining',
      ...(n.outdated ? (n.renewal ? { renewal: n.renewal } : {}) : { surplus: true }),
    };
    nodes[n.instanceId] =
      n.node && pendingHooks(n.node, 'pre-drain').length > 0
        ? { ...entry, phase: 'pre-drain' }
        : await cordonNode(context, n.node, entry);
  }
  return nodes;
}

async function cordonNode(
  { cp, now }: RollContext,
  node: NodeInfo | undefined,
  entry: NodeProgress,
): Promise<NodeProgress> {
  const existing = node?.annotations[DRAIN_START_ANNOTATION];
  const drainStartedAt = existing && !Number.isNaN(Date.parse(existing)) ? Date.parse(existing) : now;
  const lastForced = Date.parse(node?.annotations[LAST_FORCED_ANNOTATION] ?? '');
  if (node) {
    await cp.kube.patchNode(node.name, {
      unschedulable: true,
      labels: { [LIFECYCLE_LABEL]: 'draining' },
      ...(existing ? {} : { annotations: { [DRAIN_START_ANNOTATION]: new Date(now).toISOString() } }),
    });
  }
  const { phase: _phase, hookWaitSince: _since, ...rest } = entry;
  return {
    ...rest,
    cordonedAt: now,
    drainStartedAt,
    ...(Number.isNaN(lastForced) ? {} : { lastForcedAt: lastForced }),
  };
}

/**
 * A lifecycle hook phase: go on when the node carries no hook annotation of it; otherwise announce the phase on the
 * node (once), wait, and fail the roll once the pool's update_hook_timeout is over.
 */
async function holdForHooks(
  { cp, policy, now }: RollContext,
  node: NodeInfo,
  progress: NodeProgress,
  phase: HookPhase,
): Promise<{ readonly progress: NodeProgress; readonly blocked?: string }> {
  const hooks = pendingHooks(node, phase);
  const since = progress.phase === phase ? progress.hookWaitSince : undefined;
  const verdict = hookVerdict(node.name, hooks, phase, since, policy.hookTimeoutMs, now);
  if (verdict.kind === 'go') return { progress };
  if (verdict.kind === 'timeout') throw new RolloutError(verdict.detail);
  if (node.annotations[LIFECYCLE_PHASE_ANNOTATION] !== phase)
    await cp.kube.patchNode(node.name, { annotations: { [LIFECYCLE_PHASE_ANNOTATION]: phase } });
  return { progress: { ...progress, phase, hookWaitSince: verdict.since }, blocked: verdict.blocked };
}

interface NodePass {
  readonly progress: NodeProgress;
  readonly blocked: readonly string[];
  readonly terminatingSeconds: number;
  /** Pods a PDB refused to evict in this pass. */
  readonly refused: number;
  /** Drained, no hook holds it, its volumes detached (or the wait is over): terminate it now. */
  readonly terminate: boolean;
  readonly problem?: string;
}

/** One node in one step: its pre-drain hooks (then the cordon), a drain pass, then what must hold before it goes. */
async function passNode(
  context: RollContext,
  node: NodeInfo,
  known: NodeProgress,
  attachments: () => Promise<VolumeAttachmentInfo[]>,
): Promise<NodePass> {
  let progress = known;
  if (progress.phase === 'pre-drain') {
    const held = await holdForHooks(context, node, progress, 'pre-drain');
    if (held.blocked)
      return { progress: held.progress, blocked: [held.blocked], terminatingSeconds: 0, refused: 0, terminate: false };
    progress = await cordonNode(context, node, held.progress);
  }
  const { policy, now } = context;
  const lost = isLostNode(node, context.lostAfterMs ?? DEFAULT_REPAIR_AFTER_MS, now);
  const outcome = await drainPass(context.cp.kube, node.name, progress, policy.drain, now, lost);
  const drained = {
    blocked: outcome.blocked,
    terminatingSeconds: outcome.terminatingSeconds,
    refused: outcome.blocked.length,
  };
  if (!outcome.empty) return { ...drained, progress: outcome.progress, terminate: false };
  const gate = await readyToTerminate(context, node, outcome.progress, lost ? async () => [] : attachments);
  return {
    progress: gate.progress,
    blocked: gate.blocked ? [...drained.blocked, gate.blocked] : drained.blocked,
    terminatingSeconds: drained.terminatingSeconds,
    refused: drained.refused,
    terminate: !gate.blocked,
    ...(gate.problem ? { problem: gate.problem } : {}),
  };
}

/**
 * A drained node may go once no pre-terminate hook holds it and its VolumeAttachments are gone (or the detach wait is
 * over: then it goes with a problem to record).
 */
async function readyToTerminate(
  context: RollContext,
  node: NodeInfo,
  drained: NodeProgress,
  attachments: () => Promise<VolumeAttachmentInfo[]>,
): Promise<{ readonly progress: NodeProgress; readonly blocked?: string; readonly problem?: string }> {
  const held = await holdForHooks(context, node, drained, 'pre-terminate');
  if (held.blocked) return held;
  const { policy, now } = context;
  const attached = attachmentsOf(await attachments(), node.name);
  const verdict = detachVerdict(node.name, attached, held.progress.detachWaitSince, policy.volumeDetachTimeoutMs, now);
  if (verdict.kind === 'wait')
    return { progress: { ...held.progress, detachWaitSince: verdict.since }, blocked: verdict.blocked };
  return { progress: held.progress, ...(verdict.kind === 'timeout' ? { problem: verdict.detail } : {}) };
}

/** Capacity bookkeeping at the start of the step's terminations (after its scale-out). */
function ledgerOf(plan: RollPlan, snapshot: PoolSnapshot, progress: PoolProgress): TerminationLedger {
  return {
    desired: plan.scaleTo ?? snapshot.desired,
    base: progress.baseDesired ?? snapshot.desired,
    outdatedLeft: outdatedNodes(snapshot).length,
  };
}

async function drainAndTerminate(
  context: RollContext,
  plan: RollPlan,
  snapshot: PoolSnapshot,
  progress: PoolProgress,
): Promise<RollActions> {
  const { cp, now } = context;
  const nodes: Record<string, NodeProgress> = { ...progress.nodes };
  const blocked: string[] = [];
  const problems: string[] = [];
  let attachments: VolumeAttachmentInfo[] | undefined;
  const counts = { terminated: 0, replacements: 0, surplusRemoved: 0, refused: 0, terminatingSeconds: 0 };
  let ledger = ledgerOf(plan, snapshot, progress);
  const candidates = [...plan.drain, ...plan.cordon];
  for (const [index, n] of candidates.entries()) {
    const node = nodes[n.instanceId];
    if (!node || node.state === 'terminated') continue;
    if (n.node) {
      const pass = await passNode(
        context,
        n.node,
        node,
        async () => (attachments ??= await cp.kube.listVolumeAttachments()),
      );
      nodes[n.instanceId] = pass.progress;
      blocked.push(...pass.blocked);
      counts.terminatingSeconds = Math.max(counts.terminatingSeconds, pass.terminatingSeconds);
      counts.refused += pass.refused;
      if (pass.problem) problems.push(pass.problem);
      if (!pass.terminate) continue;
    }
    const surplus = nodes[n.instanceId]!.surplus === true;
    const termination = await terminateWithinBudget(context, n.instanceId, ledger, surplus, candidates.length - index);
    if (!termination) continue; // throttled: the node stays drained for the next step
    ledger = termination.ledger;
    if (!termination.decrement) counts.replacements++;
    nodes[n.instanceId] = { ...nodes[n.instanceId]!, state: 'terminated', terminatedAt: now };
    if (surplus) counts.surplusRemoved++;
    else counts.terminated++;
  }
  const pairingNodes = Math.max(0, (progress.pairingNodes ?? 0) + (plan.pairingScaleOut ?? 0) - counts.surplusRemoved);
  return {
    progress: {
      ...progress,
      nodes,
      replaced: progress.replaced + counts.terminated,
      ...(plan.pairingScaleOut || counts.surplusRemoved ? { pairingNodes } : {}),
      ...(counts.terminated > 0 && progress.firstReplacedAt === undefined ? { firstReplacedAt: now } : {}),
    },
    blocked,
    terminatingSeconds: counts.terminatingSeconds,
    ...(counts.refused > 0 ? { refused: counts.refused } : {}),
    terminated: counts.terminated,
    replacements: counts.replacements,
    ...(problems.length ? { problems } : {}),
  };
}
