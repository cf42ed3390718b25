import {
  coveringPdbs,
  describeBlock,
  forceWindowOpen,
  isEvictable,
  siblingsOldEnough,
} from '../../core/rollout/drain-rules';
import { workloadKey } from '../../core/rollout/health-gate';
import { LAST_FORCED_ANNOTATION } from '../../core/rollout/pool-snapshot';
import type { DrainSettings } from '../../core/rollout/roll-policy';
import type { NodeProgress } from '../../core/model/run';
import type { KubeCluster, PdbInfo, PodInfo } from '../../ports/kube-cluster';
import { lostPodGone } from '../../core/node-renewal/lost-node';

export interface DrainOutcome {
  /** No evictable pod is left on the node: it can be terminated. */
  readonly empty: boolean;
  readonly evicted: number;
  readonly forced: readonly string[];
  /** Pods whose eviction a PDB refused, with the PDB and what it allows. */
  readonly blocked: readonly string[];
  /** Longest termination grace of the pods that are on their way out (seconds). */
  readonly terminatingSeconds: number;
  readonly progress: NodeProgress;
}

type Kube = Pick<KubeCluster, 'listPods' | 'evictPod' | 'listPdbs' | 'deletePod' | 'patchNode'>;

/**
 * One drain pass (a pass, not a loop — the state machine decides when to come back): evict every pod
 * through the Eviction API (PDBs respected); when a PDB refuses, force-delete only under CLM's "smart
 * force" rules (core/rollout/drain-rules.ts); report what blocks.
 */
export async function drainPass(
  kube: Kube,
  nodeName: string,
  progress: NodeProgress,
  settings: DrainSettings,
  now: number,
  lost = false,
): Promise<DrainOutcome> {
  const listed = (await kube.listPods({ nodeName })).filter(isEvictable);
  // A lost node (core/node-renewal/lost-node.ts): no kubelet confirms a termination, so a pod past its grace is gone.
  const pods = lost ? listed.filter((p) => !lostPodGone(p, now)) : listed;
  const leaving = pods.filter((p) => p.deleting);
  let evicted = 0;
  let terminatingSeconds = Math.max(0, ...leaving.map((p) => secondsLeft(p, now)));
  const refused: PodInfo[] = [];
  const owners = new Set(progress.owners ?? []);
  for (const pod of pods.filter((p) => !p.deleting)) {
    const result =
      lost && !pod.ready
        ? await deleteUnready(kube, pod)
        : await kube.evictPod(pod.namespace, pod.name, pod.terminationGracePeriodSeconds);
    if (result === 'evicted') {
      if (pod.owner) owners.add(workloadKey({ ...pod.owner, namespace: pod.namespace }));
      evicted++;
      terminatingSeconds = Math.max(terminatingSeconds, pod.terminationGracePeriodSeconds);
    } else if (result === 'blocked-by-pdb') {
      refused.push(pod);
    }
  }
  if (pods.length === 0) return { empty: true, evicted, forced: [], blocked: [], terminatingSeconds: 0, progress };
  // The owners of the pods sent away: the health gate checks they are whole again once the node is gone.
  const known = progress.owners ?? [];
  const withOwners = owners.size > known.length ? { ...progress, owners: [...owners].sort() } : progress;
  const refusals = refused.length
    ? await handleRefusals(kube, nodeName, refused, withOwners, settings, now)
    : undefined;
  return {
    empty: false,
    evicted,
    forced: refusals?.forced ?? [],
    blocked: refusals?.blocked ?? [],
    terminatingSeconds: Math.max(terminatingSeconds, refusals?.terminatingSeconds ?? 0),
    progress: refusals?.progress ?? withOwners,
  };
}

/** Pods a PDB refused: force at most one of them (smart force), describe what blocks the others. */
async function handleRefusals(
  kube: Kube,
  nodeName: string,
  refused: readonly PodInfo[],
  progress: NodeProgress,
  settings: DrainSettings,
  now: number,
) {
  const pdbs = await kube.listPdbs();
  const forced: string[] = [];
  const blocked: string[] = [];
  let terminatingSeconds = 0;
  let next = progress;
  for (const pod of refused) {
    const covering = coveringPdbs(pod, pdbs);
    if (forced.length === 0 && (await forceAllowed(kube, pod, covering, next, settings, now))) {
      await kube.deletePod(pod.namespace, pod.name, pod.terminationGracePeriodSeconds);
      // On the node too, as CLM: the force interval then holds across runs and restarts.
      await kube.patchNode(nodeName, { annotations: { [LAST_FORCED_ANNOTATION]: new Date(now).toISOString() } });
      forced.push(`${pod.namespace}/${pod.name}`);
      if (pod.owner) next = withOwner(next, workloadKey({ ...pod.owner, namespace: pod.namespace }));
      terminatingSeconds = Math.max(terminatingSeconds, pod.terminationGracePeriodSeconds);
      next = { ...next, lastForcedAt: now };
    } else {
      blocked.push(describeBlock(pod, covering));
    }
  }
  return { forced, blocked, terminatingSeconds, progress: next };
}

async function forceAllowed(
  kube: Pick<KubeCluster, 'listPods'>,
  pod: PodInfo,
  pdbs: readonly PdbInfo[],
  node: NodeProgress,
  settings: DrainSettings,
  now: number,
): Promise<boolean> {
  if (!forceWindowOpen(pod, node, settings, now)) return false;
  if (pdbs.length === 0) return true;
  return siblingsOldEnough(pod, pdbs, await kube.listPods({ namespace: pod.namespace }), settings, now);
}

function withOwner(progress: NodeProgress, key: string): NodeProgress {
  const owners = progress.owners ?? [];
  return owners.includes(key) ? progress : { ...progress, owners: [...owners, key].sort() };
}

/**
 * How long a pod already on its way out may still take: until its deletion's grace ends (`deletesBy`), and a second
 * for the kubelet to report it gone; its whole grace when the API did not say.
 */
function secondsLeft(pod: PodInfo, now: number): number {
  if (pod.deletesBy === undefined) return pod.terminationGracePeriodSeconds;
  return Math.max(1, Math.ceil((Date.parse(pod.deletesBy) - now) / 1000) + 1);
}

/**
 * On a lost node a pod that is not Ready is deleted (its own grace), not evicted, as the node lifecycle controller
 * deletes the pods of an unreachable node: it is not counted healthy by any PDB, so its deletion disrupts nothing.
 */
async function deleteUnready(kube: Pick<KubeCluster, 'deletePod'>, pod: PodInfo): Promise<'evicted'> {
  await kube.deletePod(pod.namespace, pod.name, pod.terminationGracePeriodSeconds);
  return 'evicted';
}
