import type { WorkloadReadiness, WorkloadRef } from '../../ports/kube-cluster';
import type { KubeState } from '../world-state';
import { isHealthy } from './pods';
import { ownersOf, replicasOf, storedOfKind, uidOf } from './stored';

/**
 * What the ReplicaSet and StatefulSet controllers report: spec.replicas and the pods they own that run Ready and are not
 * terminating. A Deployment sums its ReplicaSets. Other kinds (and owners gone) are undefined.
 */
export function workloadReadiness(kube: KubeState, ref: WorkloadRef): WorkloadReadiness | undefined {
  if (ref.kind !== 'ReplicaSet' && ref.kind !== 'StatefulSet' && ref.kind !== 'Deployment') return undefined;
  const stored = kube.objects[`apps/${ref.kind}/${ref.namespace}/${ref.name}`];
  if (!stored) return undefined;
  const uids =
    ref.kind === 'Deployment'
      ? storedOfKind(kube, 'apps', 'ReplicaSet')
          .filter(([, rs]) => ownersOf(rs.obj).some((o) => o.uid === uidOf(stored.obj)))
          .map(([, rs]) => uidOf(rs.obj))
      : [uidOf(stored.obj)];
  const ready = Object.values(kube.pods).filter(
    (pod) => pod.owner !== undefined && uids.includes(pod.owner.uid) && isHealthy(pod),
  ).length;
  return { desired: replicasOf(stored.obj), ready };
}
