import type { FleetEvent } from '../../contracts/fleet-events';
import type { Cluster } from '../model/cluster';
import type { WaveHalt } from './fleet-state';

/** ClusterUpdateBlocked for a cluster skipped for a reason someone must act on. */
export function blockedEvent(
  cluster: Pick<Cluster, 'id' | 'status'>,
  skip: { readonly reason: string; readonly message: string; readonly targetVersion?: string },
): FleetEvent {
  return {
    type: 'ClusterUpdateBlocked',
    detail: {
      clusterId: cluster.id,
      currentVersion: cluster.status.currentVersion,
      ...(skip.targetVersion ? { targetVersion: skip.targetVersion } : {}),
      reason: skip.reason,
      blockedBy: skip.message,
    },
  };
}

/** WaveHalted for each halt the last pass did not have (same config version and wave). */
export function haltEvents(previous: readonly WaveHalt[], current: readonly WaveHalt[]): FleetEvent[] {
  const known = new Set(previous.map(haltKey));
  return current
    .filter((halt) => !known.has(haltKey(halt)))
    .map((halt) => ({
      type: 'WaveHalted',
      detail: {
        configVersion: halt.configVersion,
        wave: halt.wave,
        heldWaves: [...halt.heldWaves],
        failed: halt.failed.map((f) => ({ ...f })),
        failedCount: halt.failedCount,
        reason: halt.reason,
      },
    }));
}

function haltKey(halt: Pick<WaveHalt, 'configVersion' | 'wave'>): string {
  return `${halt.configVersion}\u0000${halt.wave}`;
}
