/** PodDisruptionBudgets in FakeKubeCluster: which cover a pod, their policy/v1 status, which are below minimum. */
import { matchesSelector } from '../../../lambdas/core/kube/label-selector';
import type { PdbInfo } from '../../../lambdas/ports/kube-cluster';
import type { FakePdb, FakePod } from './fake-kube-model';
import { isHealthy } from './fake-kube-model';

export type PdbStatus = Pick<PdbInfo, 'disruptionsAllowed' | 'currentHealthy' | 'desiredHealthy' | 'expectedPods'>;

export function coveringPdbs(pdbs: readonly FakePdb[], pod: FakePod): FakePdb[] {
  return pdbs.filter((pdb) => pdb.namespace === pod.namespace && matchesSelector(pdb.selector, pod.labels));
}

/** Healthy and expected pods of the PDB (finished pods do not count) and the disruptions it allows at `now`. */
export function pdbStatus(pdb: FakePdb, pods: readonly FakePod[], now: number): PdbStatus {
  const matching = pods.filter(
    (p) =>
      p.namespace === pdb.namespace &&
      matchesSelector(pdb.selector, p.labels) &&
      p.phase !== 'Succeeded' &&
      p.phase !== 'Failed',
  );
  const currentHealthy = matching.filter((p) => isHealthy(p, now)).length;
  return {
    currentHealthy,
    desiredHealthy: pdb.minAvailable,
    disruptionsAllowed: Math.max(0, currentHealthy - pdb.minAvailable),
    expectedPods: matching.length,
  };
}

/** PDBs whose healthy pods are below their minimum at `now`, e.g. "default/web 1<2". */
export function pdbsBelowMinimum(pdbs: readonly FakePdb[], pods: readonly FakePod[], now: number): string[] {
  return pdbs
    .map((pdb) => ({ pdb, s: pdbStatus(pdb, pods, now) }))
    .filter(({ s }) => s.currentHealthy < s.desiredHealthy)
    .map(({ pdb, s }) => `${pdb.namespace}/${pdb.name} ${s.currentHealthy}<${s.desiredHealthy}`);
}
