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
  /** A time the roll waits for, when nothing in the pool will change before it (a disruption budget's window ending). */
  readonly wakeAt?: number;
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
  const view = viewOf(snapshot, progress);
  if (view.outdated.length === 0) return finishRoll(snapshot, progress, view.base, view.inRoll);
  const mark = view.outdated.filter((n) => n.node && !isMarked(n.node));
  const wantDesired = view.base + Math.min(policy.maxSurge, view.outdated.length);
  const scaleTo = snapshot.desired < wantDesired ? wantDesired : undefined;
  const { slots, waitingFor: slotWait } = cordonSlots(view, progress, policy, now);
  const { cordon, unmatched } = pickByZone(view, slots);

  // One extra node at a time: while a new node still boots it may be the one for that AZ. Pools without
  // surge (spot) never scale out for pairing (CLM §7.4).
  const booting = snapshot.nodes.some((n) => !n.outdated && !n.ready);
  const idle = unmatched.length > 0 && cordon.length === 0 && view.draining.length === 0 && !booting;
  const current = Math.max(scaleTo ?? snapshot.desired, snapshot.desired);
  const finalScale =
    idle && policy.maxSurge > 0
      ? Math.min(current + 1, Math.max(snapshot.max, view.base + policy.maxSurge + 1))
      : scaleTo;
  // CLM §7.4: unmatched nodes fill the slots left — at once in pools without surge, otherwise only when
  // waiting cannot help (nothing draining or booting, no room to scale out), so a roll never waits forever
  // for a zone the Auto Scaling group does not fill.
  if (policy.maxSurge === 0 || (idle && !(finalScale !== undefined && finalScale > snapshot.desired))) {
    cordon.push(...unmatched.slice(0, Math.max(0, slots - cordon.length)));
  }
  const zoneWait =
    unmatched.length > 0 && cordon.length === 0
      ? `a new node in the zone of ${unmatched.length} node(s) with volumes`
      : undefined;
  const waitingFor = slotWait ?? zoneWait;
  const pairingScaleOut = idle && finalScale !== undefined ? finalScale - current : 0;
  return {
    done: false,
    ...(finalScale !== undefined && finalScale > snapshot.desired ? { scaleTo: finalScale } : {}),
    ...(pairingScaleOut > 0 ? { pairingScaleOut } : {}),
    mark,
    cordon,
    drain: view.draining,
    ...(waitingFor && cordon.length === 0 && view.draining.length === 0 ? { waitingFor } : {}),
  };
}

/** The pool's outdated nodes sorted by where they are in the roll. */
interface RollView {
  readonly outdated: readonly PoolNode[];
  readonly base: number;
  readonly inRoll: (n: PoolNode) => boolean;
  /** Cordoned by this roll and not terminated yet. */
  readonly draining: readonly PoolNode[];
  /** Cordoned by a human (or a crashed run whose progress write was lost): taken first (CLM). */
  readonly adopted: readonly PoolNode[];
  readonly waiting: readonly PoolNode[];
  readonly newReady: readonly PoolNode[];
}

function viewOf(snapshot: PoolSnapshot, progress: PoolProgress): RollView {
  // A node this roll terminated that a read right after still lists in service is gone: never counted, never taken.
  const outdated = outdatedNodes(snapshot).filter((n) => progress.nodes[n.instanceId]?.state !== 'terminated');
  const inRoll = (n: PoolNode): boolean =>
    progress.nodes[n.instanceId] !== undefined && progress.nodes[n.instanceId]!.state !== 'terminated';
  const free = (n: PoolNode): boolean => progress.nodes[n.instanceId] === undefined;
  return {
    outdated,
    base: progress.baseDesired ?? snapshot.desired,
    inRoll,
    draining: outdated.filter(inRoll),
    adopted: outdated.filter((n) => free(n) && n.node?.unschedulable),
    waiting: outdated.filter((n) => free(n) && !n.node?.unschedulable),
    newReady: snapshot.nodes.filter((n) => !n.outdated && n.ready),
  };
}

/** How many more nodes may be cordoned now: the concurrency cap, the canary and its soak, the capacity left. */
function cordonSlots(
  view: RollView,
  progress: PoolProgress,
  policy: RollPolicy,
  now: number,
): { slots: number; waitingFor?: string } {
  const busy = view.draining.length;
  let slots = Math.max(policy.maxSurge + policy.maxUnavailable, 1) - busy;
  let waitingFor: string | undefined;
  const soakEnds = progress.firstReplacedAt !== undefined ? progress.firstReplacedAt + policy.canarySoakMs : undefined;
  if (policy.canary && progress.replaced === 0) {
    slots = Math.min(slots, 1 - busy);
    if (slots <= 0) waitingFor = 'the canary node to be replaced';
  } else if (policy.canary && progress.replaced >= 1 && soakEnds !== undefined && now < soakEnds) {
    slots = 0;
    waitingFor = `canary soak until ${new Date(soakEnds).toISOString()}`;
  }
  const capacity =
    view.newReady.length + (view.outdated.length - busy) - Math.max(view.base - policy.maxUnavailable, 0);
  if (slots > 0 && capacity <= 0)
    waitingFor = `${Math.max(1, -capacity + 1)} new node(s) to become Ready before draining`;
  return { slots: Math.min(slots, capacity), ...(waitingFor ? { waitingFor } : {}) };
}

/**
 * Fill the slots: adopted nodes first, then nodes with volumes where a new Ready node in their zone can take their pods
 * (new ready nodes per zone minus nodes with volumes already draining there), then nodes without volumes. Stateful
 * pods move slowly (one at a time under their PDB, the volume detaching and attaching again): moved first, they
 * overlap the rest of the roll instead of trailing it (bench: the roll at N = 10 went from 1.14× to 1.075× of
 * ⌈N / surge⌉ × (boot + drain)).
 */
function pickByZone(view: RollView, slots: number): { cordon: PoolNode[]; unmatched: PoolNode[] } {
  const freeInAz = new Map<string, number>();
  const add = (zone: string, n: number) => freeInAz.set(zone, (freeInAz.get(zone) ?? 0) + n);
  for (const n of view.newReady) add(n.availabilityZone, 1);
  for (const n of view.draining) if (n.node?.volumesAttached) add(n.availabilityZone, -1);
  const withVolumes = (n: PoolNode) => n.node?.volumesAttached === true;
  const candidates = [
    ...view.adopted,
    ...view.waiting.filter(withVolumes),
    ...view.waiting.filter((n) => !withVolumes(n)),
  ];
  const cordon: PoolNode[] = [];
  const unmatched: PoolNode[] = [];
  for (const node of candidates) {
    if (cordon.length >= slots) break;
    if (!node.node && node.lifecycleState !== 'InService') continue; // still booting: decide when it is up
    if (withVolumes(node) && !view.adopted.includes(node)) {
      if ((freeInAz.get(node.availabilityZone) ?? 0) <= 0) {
        unmatched.push(node);
        continue;
      }
      add(node.availabilityZone, -1);
    }
    cordon.push(node);
  }
  return { cordon, unmatched };
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
 * same-zone pairing (`surplus`) are taken back the same way. When the account's launch budget has no launch for a
 * replacement now (`canLaunch` false), the termination decrements too: the surge shrinks by one, and a later step
 * scales out again once the budget allows.
 */
export function planTermination(
  ledger: TerminationLedger,
  surplus: boolean,
  canLaunch = true,
): { readonly decrement: boolean; readonly ledger: TerminationLedger } {
  const decrement = ledger.desired - ledger.base >= ledger.outdatedLeft || !canLaunch;
  return {
    decrement,
    ledger: {
      ...ledger,
      desired: decrement ? ledger.desired - 1 : ledger.desired,
      outdatedLeft: surplus ? ledger.outdatedLeft : ledger.outdatedLeft - 1,
    },
  };
}
