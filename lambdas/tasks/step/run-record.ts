import type { RunRecord } from '../../core/model/run';
import type { Ports } from '../../ports/ports';
import { ConflictError, NotFoundError } from '../../shared/errors';

/** How long a lease lives without renewal; every task renews it. */
export const LEASE_TTL_MS = 30 * 60 * 1000;

/** The identity of a task within a run, as every step receives it. */
export interface RunRef {
  readonly clusterId: string;
  readonly targetVersion: string;
  readonly holder: string;
}

export async function loadRun(ports: Pick<Ports, 'progress'>, ref: RunRef): Promise<RunRecord> {
  const run = await ports.progress.getRun(ref.clusterId, ref.targetVersion);
  if (!run) {
    throw new NotFoundError(
      `No run for cluster ${ref.clusterId} at version ${ref.targetVersion}; Prepare must run first`,
    );
  }
  return run;
}

/**
 * Read-modify-write of the run record with optimistic locking: on a conflict, re-read and re-apply the
 * change (a few times), so two writers never lose each other's updates.
 */
export async function updateRun(
  ports: Pick<Ports, 'progress' | 'clock'>,
  ref: RunRef,
  change: (run: RunRecord) => RunRecord,
): Promise<RunRecord> {
  for (let attempt = 0; ; attempt++) {
    const run = await loadRun(ports, ref);
    try {
      return await ports.progress.putRun({ ...change(run), updatedAt: ports.clock.now() });
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= 4) throw error;
    }
  }
}

/** Renew the lease (throws LeaseHeldError if another execution took it over after expiry). */
export async function renewLease(ports: Pick<Ports, 'progress' | 'clock'>, ref: RunRef): Promise<void> {
  await ports.progress.acquireLease(ref.clusterId, ref.holder, LEASE_TTL_MS, ports.clock.now(), ports.clock.kind);
}
