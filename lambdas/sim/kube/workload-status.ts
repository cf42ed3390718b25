import type { KubeState, SimPod, StoredObject } from '../world-state';
import { nameOf, namespaceOf, ownersOf, specOf, storedOfKind, uidOf } from './stored';
import type { Json } from './stored';
import { REVISION_LABEL, eligibleNodes, owner, ownerIndex, podInit, revisionOf, templateHash } from './workloads';

/** `.status` as the controllers would report it, for `list`. */
export function workloadStatus(kube: KubeState, kind: string, stored: StoredObject): Json | undefined {
  const obj = stored.obj;
  const index = ownerIndex(kube);
  const pods = (uid: string): SimPod[] => (index.get(uid) ?? []).filter((pod) => pod.deletingAt === undefined);
  const observed = stored.observedGeneration !== undefined ? { observedGeneration: stored.observedGeneration } : {};
  const summary = (list: SimPod[]): Json => ({
    replicas: list.length,
    readyReplicas: list.filter((p) => p.ready).length,
    availableReplicas: list.filter((p) => p.ready).length,
  });
  if (kind === 'ReplicaSet') return summary(pods(uidOf(obj)));
  if (kind === 'StatefulSet') {
    const list = pods(uidOf(obj));
    const revision = revisionOf(obj);
    const updated = list.filter((p) => p.labels[REVISION_LABEL] === revision).length;
    const old = list.find((p) => p.labels[REVISION_LABEL] !== revision)?.labels[REVISION_LABEL];
    return {
      ...observed,
      ...summary(list),
      updatedReplicas: updated,
      currentReplicas: old ? list.length - updated : updated,
      updateRevision: revision,
      currentRevision: old ?? revision,
    };
  }
  if (kind === 'Deployment') {
    const sets = storedOfKind(kube, 'apps', 'ReplicaSet').filter(([, rs]) =>
      ownersOf(rs.obj).some((ref) => ref.uid === uidOf(obj)),
    );
    const current = `${nameOf(obj)}-${templateHash(specOf(obj).template ?? {})}`;
    const all = sets.flatMap(([, rs]) => pods(uidOf(rs.obj)));
    const updated = sets.filter(([, rs]) => nameOf(rs.obj) === current).flatMap(([, rs]) => pods(uidOf(rs.obj)));
    return {
      ...observed,
      ...summary(all),
      updatedReplicas: updated.length,
      availableReplicas: all.filter((p) => p.ready).length,
    };
  }
  if (kind === 'DaemonSet') {
    const list = pods(uidOf(obj));
    const template = (specOf(obj).template ?? {}) as Json;
    const init = podInit(template, namespaceOf(obj), '', owner('DaemonSet', obj));
    const revision = revisionOf(obj);
    const ready = list.filter((p) => p.ready).length;
    return {
      ...observed,
      desiredNumberScheduled: eligibleNodes(Object.values(kube.nodes), init).length,
      currentNumberScheduled: list.filter((p) => p.nodeName).length,
      updatedNumberScheduled: list.filter((p) => p.labels[REVISION_LABEL] === revision).length,
      numberReady: ready,
      numberAvailable: ready,
      numberUnavailable: list.length - ready,
    };
  }
  return undefined;
}
