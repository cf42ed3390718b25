import type { ClusterSnapshot } from '../core/rehearsal/cluster-snapshot';
import type { ScenarioInput, Timings } from './scenario';

/**
 * A live cluster's snapshot as the scenario of its twin: the controllers, bare pods and PDBs run from the start
 * (their pods wait Pending until the twin's nodes are Ready), the claims' volumes stay in the zones they live in, and
 * the timings are the ones learned from the cluster's history (or those given).
 */
export function twinScenario(
  snapshot: ClusterSnapshot,
  options: { readonly seed: number; readonly timings?: Partial<Timings> },
): ScenarioInput {
  const t = snapshot.timings;
  const volumeZones = Object.fromEntries(
    snapshot.volumes.filter((v) => v.zone).map((v) => [`${v.namespace}/${v.claim}`, v.zone!]),
  );
  return {
    seed: options.seed,
    startTime: new Date(snapshot.takenAt).toISOString(),
    timings: {
      stackCreateSeconds: Math.max(t.stackUpdateSeconds * 2, 60),
      stackUpdateSeconds: t.stackUpdateSeconds,
      instanceBootSeconds: t.instanceBootSeconds,
      nodeReadySeconds: t.nodeReadySeconds,
      podStartSeconds: t.podStartSeconds,
      podTerminationSeconds: t.podTerminationSeconds,
      ...options.timings,
    },
    clusters: {
      [snapshot.clusterId]: {
        manifests: snapshot.workloads.map((o) => ({ ...o }) as Record<string, unknown>),
        ...(Object.keys(volumeZones).length ? { volumeZones } : {}),
      },
    },
  };
}
