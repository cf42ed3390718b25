import type { ClusterSnapshot } from '../core/rehearsal/cluster-snapshot';
import type { ScenarioInput, Timings } from './scenario';

/**
 * A live cluster's snapshot as the scenario of its twin: the controllers, bare pods and PDBs run from the start
 * (their pods wait Pending until the twin's nodes are Ready), the claims' volumes stay in the zones they live in, and
 * the timings are the ones learned from the cluster's history (or those given).
 */
export function twinScenario(
  snapshot: ClusterSnapshot,
  options: {
    readonly seed: number;
    readonly timings?: Partial<Timings>;
    /** The cluster's account and region: the twin's account carries the live one's vCPU quotas and their use. */
    readonly account?: { readonly id: string; readonly region: string };
  },
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
    ...(options.account ? { accounts: [twinAccount(snapshot, options.account)] } : {}),
    clusters: {
      [snapshot.clusterId]: {
        manifests: snapshot.workloads.map((o) => ({ ...o }) as Record<string, unknown>),
        ...(Object.keys(volumeZones).length ? { volumeZones } : {}),
      },
    },
  };
}

/**
 * The twin's account: the live limits that were read (an unknown one is left at the simulator's default), and what the
 * account's other instances hold (its use less the cluster's own instances, which the twin runs itself), so a surge over the
 * live headroom is refused in the twin as AWS would refuse it.
 */
function twinAccount(snapshot: ClusterSnapshot, account: { readonly id: string; readonly region: string }) {
  const quotas = snapshot.quotas ?? [];
  const figures = (pick: (q: (typeof quotas)[number]) => number | undefined) =>
    Object.fromEntries(quotas.flatMap((q) => (pick(q) === undefined ? [] : [[q.code, pick(q)!]])));
  return {
    account: account.id,
    region: account.region,
    vcpuQuotas: figures((q) => q.limit),
    vcpusUsedElsewhere: figures((q) => (q.inUse === undefined ? undefined : Math.max(0, q.inUse - q.cluster))),
  };
}
