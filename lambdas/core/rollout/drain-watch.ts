import type { PdbInfo, PodInfo } from '../../ports/kube-cluster';
import type { ClusterControls } from '../../ports/progress-store';
import { coveringPdbs, isEvictable } from './drain-rules';

/**
 * What a drain refused by PDBs waits on, as one comparable key: the pods still on the draining nodes (and whether
 * each is on its way out), what each PDB covering them allows, and the operator's pause and abort. When the key
 * changes, the block may have lifted or changed (another pod, another PDB, its counts), so the in-process wait ends
 * and the next roll step acts and reports it; PDBs that cover none of these pods do not wake it. Pure.
 */
export function drainWatchKey(
  podsOnNodes: readonly PodInfo[],
  pdbs: readonly PdbInfo[],
  controls: ClusterControls | undefined,
): string {
  const pods = podsOnNodes.filter(isEvictable);
  const covering = new Map<string, PdbInfo>();
  for (const pod of pods) for (const pdb of coveringPdbs(pod, pdbs)) covering.set(`${pdb.namespace}/${pdb.name}`, pdb);
  return JSON.stringify({
    pods: pods.map((p) => `${p.namespace}/${p.name}/${p.uid}${p.deleting ? ' leaving' : ''}`).sort(),
    pdbs: [...covering].map(([key, pdb]) => `${key} ${pdb.disruptionsAllowed}`).sort(),
    paused: controls?.paused === true,
    aborted: controls?.abortRequested === true,
  });
}
