import type { NodeProgress } from '../model/run';
import type { PdbInfo, PodInfo } from '../../ports/kube-cluster';
import { matchesSelector } from '../kube/label-selector';
import type { DrainSettings } from './roll-policy';

/** CLM §7.5: DaemonSet pods, mirror pods and finished pods are never evicted. */
export function isEvictable(pod: PodInfo): boolean {
  if (pod.annotations['kubernetes.io/config.mirror'] !== undefined) return false;
  if (pod.phase === 'Succeeded' || pod.phase === 'Failed') return false;
  return pod.owner?.kind !== 'DaemonSet';
}

/** The PDBs of the pod's namespace whose selector matches it. */
export function coveringPdbs(pod: PodInfo, pdbs: readonly PdbInfo[]): PdbInfo[] {
  return pdbs.filter((pdb) => pdb.namespace === pod.namespace && matchesSelector(pdb.selector, pod.labels));
}

/**
 * CLM's smart force (§7.5), the part that needs no more than the pod and the node: only after the node's drain
 * grace period, at most one forced deletion per interval, for pods old enough.
 */
export function forceWindowOpen(pod: PodInfo, node: NodeProgress, settings: DrainSettings, now: number): boolean {
  if (node.drainStartedAt === undefined || now < node.drainStartedAt + settings.gracePeriodMs) return false;
  if (now < (node.lastForcedAt ?? 0) + settings.forceEvictIntervalMs) return false;
  return now - Date.parse(pod.createdAt) >= settings.minPodLifetimeMs;
}

/**
 * The next moment the drain rules may force an eviction from one of the draining nodes (the end of a node's grace
 * period, or of the interval after its last forced eviction), if it is still to come: a blocked drain's back-off
 * never sleeps past it.
 */
export function nextForceAt(
  nodes: Readonly<Record<string, NodeProgress>>,
  settings: DrainSettings,
  now: number,
): number | undefined {
  const times = Object.values(nodes)
    .filter((n) => n.state === 'draining' && n.drainStartedAt !== undefined)
    .map((n) =>
      Math.max(n.drainStartedAt! + settings.gracePeriodMs, (n.lastForcedAt ?? 0) + settings.forceEvictIntervalMs),
    )
    .filter((t) => t > now);
  return times.length ? Math.min(...times) : undefined;
}

/**
 * The rest of CLM's smart force: the pod's PDB siblings (other pods its PDBs select; Job pods and finished pods
 * ignored) are old enough, healthy ones and unhealthy ones each by their own minimum lifetime.
 */
export function siblingsOldEnough(
  pod: PodInfo,
  pdbs: readonly PdbInfo[],
  namespacePods: readonly PodInfo[],
  settings: DrainSettings,
  now: number,
): boolean {
  const siblings = namespacePods.filter(
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

/** What blocks a pod's eviction, for the console: its PDB and what the PDB allows. */
export function describeBlock(pod: PodInfo, pdbs: readonly PdbInfo[]): string {
  const pdb = pdbs[0];
  if (!pdb) return `pod ${pod.namespace}/${pod.name}: eviction refused`;
  return `PDB ${pdb.namespace}/${pdb.name} allows ${pdb.disruptionsAllowed} disruption(s) (${pdb.currentHealthy}/${pdb.desiredHealthy} healthy) for pod ${pod.namespace}/${pod.name}`;
}

/** The pod and PDB (`namespace/name`) a block names, read back from describeBlock's text (others name neither). */
export function parseBlock(blockedBy: string): { readonly pod?: string; readonly pdb?: string } {
  const byPdb = /^PDB (\S+) allows .* for pod (\S+)$/.exec(blockedBy);
  if (byPdb) return { pdb: byPdb[1]!, pod: byPdb[2]! };
  const refused = /^pod (\S+): eviction refused$/.exec(blockedBy);
  return refused ? { pod: refused[1]! } : {};
}
