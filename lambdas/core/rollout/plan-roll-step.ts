import type { PoolProgress } from '../model/run';
import type { PoolNode, PoolSnapshot } from './pool-snapshot';
import { isMarked } from './pool-snapshot';
import type { RollPolicy } from './roll-policy';

/** What one RollNodePool step should do, decided from what it observed. Pure: no I/O. */
export interface RollPlan {
  readonly done: boolean;
  /** New total desired capacity, when more is needed. */
  readonly scaleTo?: number;
  /** Outdated nodes to taint and label decommission-pending (CLM §7.2). */
  readonly mark: readonly PoolNode[];
  /** Outdated nodes to cordon and start draining now. */
  readonly cordon: readonly PoolNode[];
  /** Nodes already cordoned by this roll: run a drain pass (terminate when empty). */
  readonly drain: readonly PoolNode[];
  /** Of `scaleTo`, the nodes added beyond the surge for same-zone pairing (taken back at the end). */
  readonly pairingScaleOut?: number;
  /** Why the roll is not moving faster, for the console. */
  readonly waitingFor?: string;
}

/** Outdated instances still alive (includes nodes being drained). */
export function outdatedNodes(snapshot: PoolSnapshot): PoolNode[] {
  return snapshot.nodes.filter((n) => n.outdated);
}

/**
 * Surge-based roll (CLM §7.4, with surge and max-unavailable per pool, a canary, and same-AZ pairing for
 * nodes with volumes):
 *  - keep desired at base + min(maxSurge, outdated left) — decrements on termination bring it back;
 *  - cordon outdated nodes only while new ready capacity covers them (base − maxUnavailable stays schedulable);
 *  - the first node goes alone when `canary`, then the rest after the soak;
 *  - nodes with attached volumes go only when a new ready node in their AZ can take their pods.
 */
export function planRollStep(
  snapshot: PoolSnapshot,
  progress: PoolProgress,
  policy: RollPolicy,
  now: number,
): RollPlan {
  const outdated = outdatedNodes(snapshot);
  const base = progress.baseDesired ?? snapshot.desired;
  const inRoll = (n: PoolNode): boolean =>
    progress.nodes[n.instanceId] !== undefined && progress.nodes[n.instanceId]!.state !== 'terminated';
  const draining = outdated.filter(inRoll);
  // A node cordoned by a human (or a crashed run whose progress write was lost) is taken first (CLM).
  const adopted = outdated.filter((n) => !inRoll(n) && n.node?.unschedulable);
  const waiting = outdated.filter((n) => !inRoll(n) && !n.node?.unschedulable);
  const newReady = snapshot.nodes.filter((n) => !n.outdated && n.ready);

  if (outdated.length === 0) return finishRoll(snapshot, progress, base, inRoll);

  const mark = outdated.filter((n) => n.node && !isMarked(n.node));
  const surge = Math.min(policy.maxSurge, outdated.length);
  const wantDesired = base + surge;
  const scaleTo = snapshot.desired < wantDesired ? wantDesired : undefined;

  // How many more may be cordoned: concurrency cap, canary, capacity.
  const busy = draining.length;
  let slots = Math.max(policy.maxSurge + policy.maxUnavailable, 1) - busy;
  let waitingFor: string | undefined;
  if (policy.canary && progress.replaced === 0) {
    slots = Math.min(slots, 1 - busy);
    if (slots <= 0) waitingFor = 'the canary node to be replaced';
  } else if (
    policy.canary &&
    progress.replaced >= 1 &&
    progress.firstReplacedAt !== undefined &&
    now < progress.firstReplacedAt + policy.canarySoakMs
  ) {
    slots = 0;
    waitingFor = `canary soak until ${new Date(progress.firstReplacedAt + policy.canarySoakMs).toISOString()}`;
  }
  const schedulableOld = outdated.length - busy;
  const capacity = newReady.length + schedulableOld - Math.max(base - policy.maxUnavailable, 0);
  if (slots > 0 && capacity <= 0)
    waitingFor = `${Math.max(1, -capacity + 1)} new node(s) to become Ready before draining`;
  slots = Math.min(slots, capacity);

  const cordon: PoolNode[] = [];
  // Pairing: new ready nodes per AZ minus nodes with volumes already draining there.
  const freeInAz = new Map<string, number>();
  for (const n of newReady) freeInAz.set(n.availabilityZone, (freeInAz.get(n.availabilityZone) ?? 0) + 1);
  for (const n of draining)
    if (n.node?.volumesAttached) freeInAz.set(n.availabilityZone, (freeInAz.get(n.availabilityZone) ?? 0) - 1);
  const candidates = [
    ...adopted,
    ...waiting.filter((n) => !n.node?.volumesAttached),
    ...waiting.filter((n) => n.node?.volumesAttached),
  ];
  const unmatchedNodes: PoolNode[] = [];
  for (const node of candidates) {
    if (cordon.length >= slots) break;
    if (!node.node && node.lifecycleState !== 'InService') continue; // still booting: decide when it is up
    if (node.node?.volumesAttached && !adopted.includes(node)) {
      const free = freeInAz.get(node.availabilityZone) ?? 0;
      if (free <= 0) {
        unmatchedNodes.push(node);
        continue;
      }
      freeInAz.set(node.availabilityZone, free - 1);
    }
    cordon.push(node);
  }
  const unmatched = unmatchedNodes.length;
  // One extra node at a time: while a new node still boots it may be the one for that AZ. Pools without
  // surge (spot) never scale out for pairing (CLM §7.4).
  const booting = snapshot.nodes.some((n) => !n.outdated && !n.ready);
  const idle = unmatched > 0 && cordon.length === 0 && busy === 0 && !booting;
  const finalScale =
    idle && policy.maxSurge > 0
      ? Math.min(
          Math.max(scaleTo ?? snapshot.desired, snapshot.desired) + 1,
          Math.max(snapshot.max, base + policy.maxSurge + 1),
        )
      : scaleTo;
  // CLM §7.4: unmatched nodes fill the slots left — at once in pools without surge, otherwise only when
  // waiting cannot help (nothing draining or booting, no room to scale out), so a roll never waits forever
  // for a zone the Auto Scaling group does not fill.
  if (policy.maxSurge === 0 || (idle && !(finalScale !== undefined && finalScale > snapshot.desired))) {
    for (const node of unmatchedNodes) {
      if (cordon.length >= slots) break;
      cordon.push(node);
    }
  }
  if (unmatched > 0 && cordon.length === 0 && !waitingFor)
    waitingFor = `a new node in the zone of ${unmatched} node(s) with volumes`;

  const pairingScaleOut =
    idle && finalScale !== undefined ? finalScale - Math.max(scaleTo ?? snapshot.desired, snapshot.desired) : 0;
  return {
    done: false,
    ...(finalScale !== undefined && finalScale > snapshot.desired ? { scaleTo: finalScale } : {}),
    ...(pairingScaleOut > 0 ? { pairingScaleOut } : {}),
    mark,
    cordon,
    drain: draining,
    ...(waitingFor && cordon.length === 0 && draining.length === 0 ? { waitingFor } : {}),
  };
}

/**
 * No outdated node is left. Wait for every desired node to be Ready, then take back the nodes this roll
 * added for same-zone pairing (never more than it added, so a cluster autoscaler's scale-up is left alone):
 * one at a time, drained like any other (PDBs respected), preferring nodes without volumes in the fullest zone.
 */
function finishRoll(
  snapshot: PoolSnapshot,
  progress: PoolProgress,
  base: number,
  inRoll: (n: PoolNode) => boolean,
): RollPlan {
  const draining = snapshot.nodes.filter(inRoll);
  if (draining.length) return { done: false, mark: [], cordon: [], drain: draining };
  const ready = snapshot.nodes.filter((n) => n.ready);
  if (ready.length < snapshot.desired) {
    return {
      done: false,
      mark: [],
      cordon: [],
      drain: [],
      waitingFor: `${snapshot.desired - ready.length} new node(s) to become Ready`,
    };
  }
  const surplus = Math.min(progress.pairingNodes ?? 0, snapshot.desired - base);
  if (surplus <= 0) return { done: true, mark: [], cordon: [], drain: [] };
  const perZone = new Map<string, number>();
  for (const n of ready) perZone.set(n.availabilityZone, (perZone.get(n.availabilityZone) ?? 0) + 1);
  const [pick] = [...ready].sort(
    (a, b) =>
      Number(a.node?.volumesAttached ?? false) - Number(b.node?.volumesAttached ?? false) ||
      (perZone.get(b.availabilityZone) ?? 0) - (perZone.get(a.availabilityZone) ?? 0) ||
      a.instanceId.localeCompare(b.instanceId),
  );
  return {
    done: false,
    mark: [],
    cordon: pick ? [pick] : [],
    drain: [],
    waitingFor: `${surplus} node(s) added for same-zone pairing to be drained away`,
  };
}

/** Capacity bookkeeping while one step terminates the nodes it drained empty. */
export interface TerminationLedger {
  /** Desired capacity right now (after this step's scale-out). */
  readonly desired: number;
  /** Desired capacity before the roll; surge is added on top and taken back by decrements. */
  readonly base: number;
  /** Outdated nodes not terminated yet. */
  readonly outdatedLeft: number;
}

/**
 * Terminate one drained node with or without decrementing the Auto Scaling group (CLM §7.4): decrement only once
 * the capacity above base covers the outdated nodes left (with surge 3, the last 3); before that the group's
 * replacement is the next surge node. Pools without surge (spot) never decrement, and the extra nodes added for
 * same-zone pairing (`surplus`) are taken back the same way.
 */
export function planTermination(
  ledger: TerminationLedger,
  surplus: boolean,
): { readonly decrement: boolean; readonly ledger: TerminationLedger } {
  const decrement = ledger.desired - ledger.base >= ledger.outdatedLeft;
  return {
    decrement,
    ledger: {
      ...ledger,
      desired: decrement ? ledger.desired - 1 : ledger.desired,
      outdatedLeft: surplus ? ledger.outdatedLeft : ledger.outdatedLeft - 1,
    },
  };
}
