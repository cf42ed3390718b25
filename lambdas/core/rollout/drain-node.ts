import type { NodeProgress } from '../model/run';
import type { KubeCluster, PdbInfo, PodInfo } from '../../ports/kube-cluster';
import { matchesSelector } from '../kube/label-selector';
import { LAST_FORCED_ANNOTATION } from './pool-snapshot';
import type { DrainSettings } from './roll-policy';

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

/** CLM §7.5: DaemonSet pods, mirror pods and finished pods are never evicted. */
export function isEvictable(pod: PodInfo): boolean {
  if (pod.annotations['kubernetes.io/config.mirror'] !== undefined) return false;
  if (pod.phase === 'Succeeded' || pod.phase === 'Failed') return false;
  return pod.owner?.kind !== 'DaemonSet';
}

/**
 * One drain pass (a pass, not a loop — the state machine decides when to come back): evict every pod
 * through the Eviction API (PDBs respected); when a PDB refuses, force-delete only under CLM's "smart
 * force" rules; report what blocks.
 */
export async function drainPass(
  kube: KubeCluster,
  nodeName: string,
  progress: NodeProgress,
  settings: DrainSettings,
  now: number,
): Promise<DrainOutcome> {
  const pods = (await kube.listPods({ nodeName })).filter(isEvictable);
  const leaving = pods.filter((p) => p.deleting);
  const active = pods.filter((p) => !p.deleting);
  let evicted = 0;
  let terminatingSeconds = Math.max(0, ...leaving.map((p) => p.terminationGracePeriodSeconds));
  const refused: PodInfo[] = [];
  for (const pod of active) {
    const result = await kube.evictPod(pod.namespace, pod.name, pod.terminationGracePeriodSeconds);
    if (result === 'evicted') {
      evicted++;
      terminatingSeconds = Math.max(terminatingSeconds, pod.terminationGracePeriodSeconds);
    } else if (result === 'blocked-by-pdb') {
      refused.push(pod);
    }
  }
  if (pods.length === 0) return { empty: true, evicted, forced: [], blocked: [], terminatingSeconds: 0, progress };

  const forced: string[] = [];
  const blocked: string[] = [];
  let next = progress;
  if (refused.length > 0) {
    const pdbs = await kube.listPdbs();
    for (const pod of refused) {
      const covering = pdbs.filter(
        (pdb) => pdb.namespace === pod.namespace && matchesSelector(pdb.selector, pod.labels),
      );
      const force = forced.length === 0 && (await forceAllowed(kube, pod, covering, next, settings, now));
      if (force) {
        await kube.deletePod(pod.namespace, pod.name, pod.terminationGracePeriodSeconds);
        // On the node too, as CLM: the force interval then holds across runs and restarts.
        await kube.patchNode(nodeName, { annotations: { [LAST_FORCED_ANNOTATION]: new Date(now).toISOString() } });
        forced.push(`${pod.namespace}/${pod.name}`);
        terminatingSeconds = Math.max(terminatingSeconds, pod.terminationGracePeriodSeconds);
        next = { ...next, lastForcedAt: now };
      } else {
        blocked.push(describeBlock(pod, covering));
      }
    }
  }
  return { empty: false, evicted, forced, blocked, terminatingSeconds, progress: next };
}

function describeBlock(pod: PodInfo, pdbs: readonly PdbInfo[]): string {
  const pdb = pdbs[0];
  if (!pdb) return `pod ${pod.namespace}/${pod.name}: eviction refused`;
  return `PDB ${pdb.namespace}/${pdb.name} allows ${pdb.disruptionsAllowed} disruption(s) (${pdb.currentHealthy}/${pdb.desiredHealthy} healthy) for pod ${pod.namespace}/${pod.name}`;
}

/**
 * CLM's smart force (§7.5): only after the node's drain grace period, at most one forced deletion per
 * interval, for pods old enough whose PDB siblings are old enough (Job pods and finished pods ignored).
 */
export async function forceAllowed(
  kube: KubeCluster,
  pod: PodInfo,
  pdbs: readonly PdbInfo[],
  node: NodeProgress,
  settings: DrainSettings,
  now: number,
): Promise<boolean> {
  if (node.drainStartedAt === undefined || now < node.drainStartedAt + settings.gracePeriodMs) return false;
  if (now < (node.lastForcedAt ?? 0) + settings.forceEvictIntervalMs) return false;
  if (now - Date.parse(pod.createdAt) < settings.minPodLifetimeMs) return false;
  if (pdbs.length === 0) return true;
  const siblings = (await kube.listPods({ namespace: pod.namespace })).filter(
    (p) =>
      p.uid !== pod.uid &&
      p.phase !== 'Succeeded' &&
      p.phase !== 'Failed' &&
      p.owner?.kind !== 'Job' &&
      pdbs.some((pdb) => matchesSelector(pdb.selector, p.labels)),
  );
  return siblings.every(
    (p) =>
      now - Date.parse(p.createdAt) >=
      (p.ready ? settings.minHealthySiblingLifetimeMs : settings.minUnhealthySiblingLifetimeMs),
  );
}
