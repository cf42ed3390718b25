import type { NodeProgress, PoolProgress } from '../model/run';
import { outdatedNodes } from './plan-roll-step';
import type { PoolSnapshot } from './pool-snapshot';

/**
 * Fold what the world shows into the stored progress of a pool's roll: nodes gone count as replaced (or, for the
 * extra nodes added for same-zone pairing, as taken back), and boot times are learned from launches seen.
 */
export function reconcilePool(
  stored: PoolProgress | undefined,
  snapshot: PoolSnapshot,
  now: number,
  learnedBootMs?: number,
  keepFinished = KEEP_FINISHED_NODES,
): PoolProgress {
  const base: PoolProgress = stored ?? {
    status: 'rolling',
    total: 0,
    replaced: 0,
    nodes: {},
    steps: 0,
    // Marked on the groups before the roll's first scale-out: a step retried after its progress was lost, or a new
    // run finding a roll half done, sees the pool with the surge in it, so the size now would drift.
    baseDesired: snapshot.preRollDesired ?? snapshot.desired,
    startedAt: now,
    ...(learnedBootMs !== undefined ? { bootEstimateMs: learnedBootMs } : {}),
  };
  // The marks hold the pairing count through a lost progress write (written before a pairing scale-out, lowered after
  // a take-back): they win over the record.
  const gone = foldGoneNodes(base, snapshot, now, keepFinished, snapshot.preRollPairing ?? base.pairingNodes ?? 0);
  const boot = learnBootTimes(base, snapshot, now);
  const pairingChanged = gone.pairingNodes !== (base.pairingNodes ?? 0);
  const { launchedAt: _consumed, ...rest } = base;
  return {
    ...rest,
    nodes: gone.nodes,
    replaced: gone.replaced,
    ...(pairingChanged ? { pairingNodes: gone.pairingNodes } : {}),
    total: Math.max(base.total, gone.replaced + outdatedNodes(snapshot).length),
    launches: boot.launches,
    ...(boot.bootEstimateMs !== undefined ? { bootEstimateMs: boot.bootEstimateMs } : {}),
  };
}

/**
 * Finished nodes a pool's record keeps in detail: beyond this many, the oldest of those that may be forgotten are
 * dropped (`replaced` still counts them). The run record is one DynamoDB item (at most 400 KB) and a finished node
 * takes ≈ 300 bytes of it, so without a cap a roll of about 1,200 nodes could not be recorded.
 */
export const KEEP_FINISHED_NODES = 100;
/** Finished nodes kept in detail across all pools of a run (≈ 180 KB): a cluster with many pools keeps fewer each. */
export const KEEP_FINISHED_NODES_PER_RUN = 600;

/** How many finished nodes each pool keeps in detail in a cluster of `pools` node pools (at least 5). */
export function finishedNodesToKeep(pools: number): number {
  return Math.max(5, Math.min(KEEP_FINISHED_NODES, Math.floor(KEEP_FINISHED_NODES_PER_RUN / Math.max(1, pools))));
}

/**
 * A terminated node is forgotten no sooner than this after it went, so a read that still lists its instance (the
 * Auto Scaling group's listing is eventually consistent) never finds it unknown and takes it again.
 */
export const FORGET_AFTER_MS = 15 * 60_000;

function foldGoneNodes(base: PoolProgress, snapshot: PoolSnapshot, now: number, keepFinished: number, pairing: number) {
  const alive = new Set(snapshot.nodes.map((n) => n.instanceId));
  const nodes: Record<string, NodeProgress> = { ...base.nodes };
  let replaced = base.replaced;
  let pairingNodes = pairing;
  for (const [id, node] of Object.entries(nodes)) {
    if (node.state === 'terminated' || alive.has(id)) continue;
    nodes[id] = { ...node, state: 'terminated', terminatedAt: now };
    if (node.surplus) pairingNodes = Math.max(0, pairingNodes - 1);
    else replaced++;
  }
  forgetOldFinished(nodes, alive, base.gatedAt, now, keepFinished);
  return { nodes, replaced, pairingNodes };
}

/**
 * Drops, oldest first, the finished nodes beyond `keep` that nothing needs any more: terminated, no longer listed by
 * the pool, checked by a health gate that passed after they went (so no owner of theirs is still to check), and gone
 * for FORGET_AFTER_MS.
 */
function forgetOldFinished(
  nodes: Record<string, NodeProgress>,
  alive: ReadonlySet<string>,
  gatedAt: number | undefined,
  now: number,
  keep: number,
): void {
  if (gatedAt === undefined) return;
  const forgettable = Object.entries(nodes)
    .filter(([id, n]) => n.state === 'terminated' && !alive.has(id) && n.terminatedAt !== undefined)
    .filter(([, n]) => n.terminatedAt! < gatedAt && now - n.terminatedAt! >= FORGET_AFTER_MS)
    .sort(([a, x], [b, y]) => x.terminatedAt! - y.terminatedAt! || a.localeCompare(b));
  for (const [id] of forgettable.slice(0, Math.max(0, forgettable.length - keep))) delete nodes[id];
}

/**
 * A new node first seen not Ready starts a launch clock: at its EC2 launch time when the backend says, else at the
 * launch the previous step caused (`launchedAt`), else now. Its boot ends when its Node object was created (it
 * registers Ready), not when a step saw it; a node already Ready when first seen is measured the same way. The
 * longest boot so far is kept. Before any is known, the pool's Ready nodes tell how long they took (the median of
 * EC2 launch to Node creation), so even the first batch of a roll sleeps as long as a boot takes.
 */
function learnBootTimes(base: PoolProgress, snapshot: PoolSnapshot, now: number) {
  const alive = new Set(snapshot.nodes.map((n) => n.instanceId));
  const launches: Record<string, number> = { ...(base.launches ?? {}) };
  let bootEstimateMs = base.bootEstimateMs ?? seedBootEstimate(snapshot);
  const learn = (launch: number, registered: number) => {
    bootEstimateMs = Math.max(bootEstimateMs ?? 0, registered - launch);
  };
  for (const n of snapshot.nodes) {
    if (n.outdated) continue;
    const launch = launches[n.instanceId];
    const registered = n.node ? Date.parse(n.node.createdAt) : Number.NaN;
    if (!n.ready) {
      if (launch === undefined) launches[n.instanceId] = n.launchedAt ?? base.launchedAt ?? now;
    } else if (launch !== undefined) {
      learn(launch, registered >= launch && registered <= now ? registered : now);
      delete launches[n.instanceId];
    } else {
      const launched = n.launchedAt ?? base.launchedAt;
      if (launched !== undefined && registered >= launched && registered <= now && launched >= (base.startedAt ?? now))
        learn(launched, registered);
    }
  }
  for (const id of Object.keys(launches)) if (!alive.has(id)) delete launches[id];
  return { launches, bootEstimateMs };
}

/** The median boot (EC2 launch → Node created) of the pool's Ready nodes whose launch time is known. */
function seedBootEstimate(snapshot: PoolSnapshot): number | undefined {
  const boots = snapshot.nodes
    .filter((n) => n.ready && n.launchedAt !== undefined && n.node)
    .map((n) => Date.parse(n.node!.createdAt) - n.launchedAt!)
    .filter((ms) => Number.isFinite(ms) && ms >= 0)
    .sort((a, b) => a - b);
  return boots.length ? boots[boots.length >> 1] : undefined;
}
