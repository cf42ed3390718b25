import type { NodePool } from '../../core/model/cluster';
import type { NodeProgress, PoolProgress } from '../../core/model/run';
import {
  outdatedNodes,
  planTermination,
  type RollPlan,
  type TerminationLedger,
} from '../../core/rollout/plan-roll-step';
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
import type { ClusterRef } from '../../ports/node-pool-backend';
import type { ClusterPorts } from '../../ports/ports';
import { drainPass } from './drain-pass';

/** What every action of one roll step works with. */
export interface RollContext {
  readonly cp: Pick<ClusterPorts, 'pools' | 'kube'>;
  readonly target: ClusterRef;
  readonly pool: NodePool;
  readonly policy: RollPolicy;
  readonly now: number;
}

/** Carry out a roll plan: mark, scale out, cordon, then a drain pass on each node and terminate those drained empty. */
export async function rollActions(
  context: RollContext,
  plan: RollPlan,
  snapshot: PoolSnapshot,
  progress: PoolProgress,
): Promise<RollActions> {
  await markNodes(context, plan.mark);
  if (plan.scaleTo !== undefined) await context.cp.pools.scale(context.target, context.pool.name, plan.scaleTo);
  const nodes = await cordonNodes(context, plan.cordon, progress.nodes);
  return drainAndTerminate(context, plan, snapshot, { ...progress, nodes });
}

/** Taint outdated nodes and label them decommission-pending (CLM §7.2). */
async function markNodes(context: RollContext, mark: readonly PoolNode[]): Promise<void> {
  const taint = decommissionTaint(context.policy.noScheduleTaint && !context.pool.profile.includes('master'));
  for (const n of mark) {
    if (!n.node || isMarked(n.node)) continue;
    const status = n.node.labels[LIFECYCLE_LABEL];
    await context.cp.kube.patchNode(n.node.name, {
      taints: [...n.node.taints.filter((t) => t.key !== taint.key), taint],
      ...(status === undefined || status === 'ready' ? { labels: { [LIFECYCLE_LABEL]: 'decommission-pending' } } : {}),
    });
  }
}

/** Cordon and start the drain clock (kept from an earlier run's annotation, never restarted). */
async function cordonNodes(
  { cp, now }: RollContext,
  cordon: readonly PoolNode[],
  known: PoolProgress['nodes'],
): Promise<Record<string, NodeProgress>> {
  const nodes: Record<string, NodeProgress> = { ...known };
  for (const n of cordon) {
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
  return nodes;
}

async function drainAndTerminate(
  { cp, target, policy, now }: RollContext,
  plan: RollPlan,
  snapshot: PoolSnapshot,
  progress: PoolProgress,
): Promise<RollActions> {
  const nodes: Record<string, NodeProgress> = { ...progress.nodes };
  const blocked: string[] = [];
  let terminatingSeconds = 0;
  const counts = { terminated: 0, replacements: 0, surplusRemoved: 0 };
  let ledger: TerminationLedger = {
    desired: plan.scaleTo ?? snapshot.desired,
    base: progress.baseDesired ?? snapshot.desired,
    outdatedLeft: outdatedNodes(snapshot).length,
  };
  for (const n of [...plan.drain, ...plan.cordon]) {
    const node = nodes[n.instanceId];
    if (!node || node.state === 'terminated') continue;
    if (n.node) {
      const outcome = await drainPass(cp.kube, n.node.name, node, policy.drain, now);
      nodes[n.instanceId] = outcome.progress;
      blocked.push(...outcome.blocked);
      terminatingSeconds = Math.max(terminatingSeconds, outcome.terminatingSeconds);
      if (!outcome.empty) continue;
    }
    const surplus = nodes[n.instanceId]!.surplus === true;
    const termination = planTermination(ledger, surplus);
    await cp.pools.terminate(target, n.instanceId, termination.decrement);
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
    terminatingSeconds,
    terminated: counts.terminated,
    replacements: counts.replacements,
  };
}
