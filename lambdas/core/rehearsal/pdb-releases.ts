import type { RunRecord } from '../model/run';
import type { PdbInfo } from '../../ports/kube-cluster';
import { duration } from './format-rehearsal';
import { median } from './learned-timings';

/**
 * A PDB that allows no disruption even with every pod healthy (maxUnavailable 0, or minAvailable of all its pods):
 * only someone else (an operator relaxing it, a scale-up) or CLM's forced drain ends its block. Its release is how
 * long its blocks lasted in the cluster's earlier rolls where they ended without a forced drain; absent when none did.
 */
export interface PdbRelease {
  /** `namespace/name` */
  readonly pdb: string;
  /** The median length of those blocks, in seconds. */
  readonly seconds?: number;
  /** How many blocks ended without a forced drain (the history the median is of). */
  readonly released: number;
  /** How many ended with one. */
  readonly forced: number;
}

/** The PDBs that allow no disruption even with every pod healthy. */
export function zeroBudgetPdbs(pdbs: readonly PdbInfo[]): PdbInfo[] {
  return pdbs.filter((p) => p.expectedPods > 0 && p.desiredHealthy >= p.expectedPods);
}

/** For each zero-budget PDB, how its blocks ended in `runs` (the cluster's earlier runs' pool progress). */
export function pdbReleases(pdbs: readonly PdbInfo[], runs: readonly RunRecord[]): PdbRelease[] {
  const spells = runs.flatMap((r) => Object.values(r.pools).flatMap((p) => p.pdbBlocks ?? []));
  return zeroBudgetPdbs(pdbs).map((p) => {
    const pdb = `${p.namespace}/${p.name}`;
    const ended = spells.filter((s) => s.pdb === pdb && s.endedAt !== undefined);
    const released = ended.filter((s) => !s.forced).map((s) => (s.endedAt! - s.since) / 1000);
    const seconds = median(released);
    return {
      pdb,
      ...(seconds !== undefined ? { seconds: Math.round(seconds) } : {}),
      released: released.length,
      forced: ended.length - released.length,
    };
  });
}

/** What the rehearsal assumed of each zero-budget PDB, for its notes. */
export function releaseNotes(releases: readonly PdbRelease[]): string[] {
  return releases.map((r) =>
    r.seconds !== undefined
      ? `PDB ${r.pdb} allows no disruption; in the last runs its block ended after ${duration(r.seconds)} (median of ${r.released}) without a forced drain, so the twin lets one pod go after as long; if nobody acts this time, each drain waits for drain_grace_period and is forced`
      : `PDB ${r.pdb} allows no disruption and no earlier run saw its block end by itself${r.forced ? ` (${r.forced} ended by a forced drain)` : ''}: the twin forces each drain at drain_grace_period; someone relaxing it would make the update shorter`,
  );
}
