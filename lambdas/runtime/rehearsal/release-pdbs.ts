import type { PdbRelease } from '../../core/rehearsal/pdb-releases';
import type { KubeCluster } from '../../ports/kube-cluster';

type Json = Record<string, unknown>;

/**
 * What the cluster's history says someone does about a PDB that allows no disruption: the twin lets one pod go at a
 * time (maxUnavailable 1, or minAvailable one below its pods) once the PDB has blocked the drain as long as its
 * blocks lasted in earlier runs. Writes go to the twin's API only.
 */
export function pdbReleaser(
  releases: readonly PdbRelease[],
  kube: Pick<KubeCluster, 'list' | 'apply'>,
  blockedSince: (pdb: string) => number | undefined,
): (now: number) => Promise<void> {
  const due = releases.filter((r) => r.seconds !== undefined);
  const done = new Set<string>();
  return async (now) => {
    for (const release of due) {
      const since = blockedSince(release.pdb);
      if (done.has(release.pdb) || since === undefined || now - since < release.seconds! * 1000) continue;
      done.add(release.pdb);
      await relax(kube, release.pdb);
    }
  };
}

async function relax(kube: Pick<KubeCluster, 'list' | 'apply'>, key: string): Promise<void> {
  const [namespace, name] = key.split('/') as [string, string];
  const pdb = (await kube.list('PodDisruptionBudget', { namespace })).find((p) => p.metadata.name === name);
  if (!pdb) return;
  const spec = (pdb.spec ?? {}) as Json;
  const status = (pdb.status ?? {}) as Json;
  const relaxed =
    spec.minAvailable !== undefined
      ? { minAvailable: Math.max(0, Number(status.expectedPods ?? 1) - 1) }
      : { maxUnavailable: 1 };
  await kube.apply(
    [
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name, namespace },
        spec: { selector: spec.selector, ...relaxed },
      },
    ],
    { fieldManager: 'rehearsal-history' },
  );
}
