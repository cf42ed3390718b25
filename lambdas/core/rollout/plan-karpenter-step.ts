import type { PoolProgress } from '../model/run';
import { heldUntil, type Budget } from '../karpenter/disruption-budget';
import { outdatedNodes, type RollPlan } from './plan-roll-step';
import { isMarked, type PoolNode, type PoolSnapshot } from './pool-snapshot';
import type { RollPolicy } from './roll-policy';

/**
 * One step of rolling a Karpenter pool (CLM §7.1 drift, Karpenter's disruption budgets, our drains). There is no
 * surge to add: Karpenter launches what the evicted pods need. So the nodes "in flight" — outdated nodes this roll
 * has taken (cordoned, draining, waiting for volumes to detach) plus new nodes not Ready yet (NodeClaims launching,
 * nodes booting) — may never exceed the disruption budget; the next batch starts only when the replacements are
 * Ready (and, at each batch boundary, the health gate finds the evicted pods' owners whole again); a scheduled budget
 * of 0 takes no node until its window ends (the plan's `wakeAt`). Like the ASG roll:
 * adopted (already cordoned) nodes first, then nodes without volumes, then nodes with volumes; the first node alone
 * when the pool's `update_canary` says so. Pure.
 */
export function planKarpenterStep(
  snapshot: PoolSnapshot,
  progress: PoolProgress,
  policy: Pick<RollPolicy, 'canary' | 'canarySoakMs'>,
  budget: Budget,
  now: number,
): RollPlan {
  const inRoll = (n: PoolNode): boolean =>
    progress.nodes[n.instanceId] !== undefined && progress.nodes[n.instanceId]!.state !== 'terminated';
  const outdated = outdatedNodes(snapshot);
  const draining = snapshot.nodes.filter(inRoll);
  const booting = snapshot.nodes.filter((n) => !n.outdated && !n.ready);
  if (outdated.length === 0) {
    if (draining.length) return { done: false, mark: [], cordon: [], drain: draining };
    if (booting.length)
      return {
        done: false,
        mark: [],
        cordon: [],
        drain: [],
        waitingFor: `${booting.length} new node(s) to become Ready`,
      };
    return { done: true, mark: [], cordon: [], drain: [] };
  }
  const mark = outdated.filter((n) => n.node && !isMarked(n.node));
  let slots = budget.nodes - draining.length - booting.length;
  let waitingFor: string | undefined;
  const held = heldUntil(budget);
  if (held !== undefined) waitingFor = `the disruption budget ${budget.from} to end at ${new Date(held).toISOString()}`;
  else if (slots <= 0)
    waitingFor = booting.length
      ? `${booting.length} replacement node(s) to become Ready (disruption budget ${budget.from}: ${budget.nodes} node(s) at once)`
      : `the ${draining.length} node(s) in flight (disruption budget ${budget.from}: ${budget.nodes} node(s) at once)`;
  const soakEnds = progress.firstReplacedAt !== undefined ? progress.firstReplacedAt + policy.canarySoakMs : undefined;
  if (policy.canary && progress.replaced === 0) {
    slots = Math.min(slots, 1 - draining.length);
    if (slots <= 0) waitingFor ??= 'the canary node to be replaced';
  } else if (policy.canary && soakEnds !== undefined && now < soakEnds) {
    slots = 0;
    waitingFor = `canary soak until ${new Date(soakEnds).toISOString()}`;
  }
  const withVolumes = (n: PoolNode) => n.node?.volumesAttached === true;
  // A node this roll terminated stays visible until Karpenter removes it: never taken twice.
  const terminated = (n: PoolNode) => progress.nodes[n.instanceId]?.state === 'terminated';
  const waiting = outdated.filter((n) => !inRoll(n) && !terminated(n) && n.node);
  const candidates = [
    ...waiting.filter((n) => n.node!.unschedulable),
    ...waiting.filter((n) => !n.node!.unschedulable && !withVolumes(n)),
    ...waiting.filter((n) => !n.node!.unschedulable && withVolumes(n)),
  ];
  const cordon = candidates.slice(0, Math.max(0, slots));
  return {
    done: false,
    mark,
    cordon,
    drain: draining,
    ...(waitingFor && cordon.length === 0 && draining.length === 0 ? { waitingFor } : {}),
    ...(held !== undefined ? { wakeAt: held } : {}),
  };
}
