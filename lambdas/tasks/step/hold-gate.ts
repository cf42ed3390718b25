import type { Cluster } from '../../core/model/cluster';
import { updateBlock } from '../../core/model/update-decision';
import type { Ports } from '../../ports/ports';
import { UpdateHeldError } from '../../shared/errors';
import { loadCluster } from './cluster-status';

/**
 * Before a step writes anything (stacks, manifests, deletions, pools): an operator's pause or abort (the progress
 * store) or `cluster_update_block` (the live registry; the pinned cluster when the registry cannot be read) stops the
 * update here — UpdateHeldError, which the state machine catches to StopAtSafePoint (the lease released, no problem
 * recorded; `clm resume` or removing the item continues from the stored progress). Prepare checks once at the start
 * and the roll once per batch of nodes; this is every other step that changes the cluster.
 */
export async function assertNotHeld(
  ports: Pick<Ports, 'registry' | 'progress'>,
  pinned: Cluster,
  step: string,
): Promise<void> {
  const live = await loadCluster(ports, pinned.id).catch(() => pinned);
  const hold = updateBlock(live, await ports.progress.getControls(pinned.id));
  if (hold) throw new UpdateHeldError(`${step}: held before it changed anything, ${hold.detail}`);
}
