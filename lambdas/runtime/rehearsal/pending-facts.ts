import { addResources, NO_RESOURCES, podRequests, resourcesOf, type Resources } from '../../core/kube/pod-resources';
import { isRecord } from '../../core/config/plain-data';
import type { NodeFacts, PendingFacts, PendingPod } from '../../core/rehearsal/pending-reasons';
import { nodePoolsAtLimitOf } from '../../core/rehearsal/nodepool-limits';
import type { KubeCluster, KubeObject, Taint } from '../../ports/kube-cluster';
import type { ConstrainedPod, PlacedPod } from '../../core/kube/scheduling-constraints';

type Json = Record<string, unknown>;

function specOf(o: KubeObject): Json {
  return isRecord(o.spec) ? o.spec : {};
}

/** Claims `<namespace>/<claim>` → the zone their volume lives in, from the volumes' claim references and labels. */
function claimZones(volumes: readonly KubeObject[]): Map<string, string> {
  const zones = new Map<string, string>();
  for (const pv of volumes) {
    const ref = specOf(pv).claimRef;
    const zone = pv.metadata.labels?.['topology.kubernetes.io/zone'];
    if (isRecord(ref) && zone) zones.set(`${String(ref.namespace)}/${String(ref.name)}`, zone);
  }
  return zones;
}

function claimsOf(pod: KubeObject): string[] {
  const volumes = Array.isArray(specOf(pod).volumes) ? (specOf(pod).volumes as unknown[]).filter(isRecord) : [];
  return volumes.flatMap((v) =>
    isRecord(v.persistentVolumeClaim)
      ? [`${pod.metadata.namespace ?? 'default'}/${String(v.persistentVolumeClaim.claimName)}`]
      : [],
  );
}

/** What the scheduling constraints read of a pod. */
function constrained(pod: KubeObject): ConstrainedPod {
  const spec = specOf(pod);
  return {
    namespace: pod.metadata.namespace ?? 'default',
    labels: pod.metadata.labels ?? {},
    ...(isRecord(spec.nodeSelector) ? { nodeSelector: spec.nodeSelector as Record<string, string> } : {}),
    ...(spec.affinity ? { affinity: spec.affinity } : {}),
    ...(spec.topologySpreadConstraints ? { topologySpreadConstraints: spec.topologySpreadConstraints } : {}),
  };
}

/** The twin's pods that wait for a node, and its nodes with what is bound to them: read through its API. */
export async function pendingFacts(kube: Pick<KubeCluster, 'list'>): Promise<PendingFacts> {
  const [pods, nodes, volumes] = await Promise.all([
    kube.list('Pod'),
    kube.list('Node'),
    kube.list('PersistentVolume'),
  ]);
  const requested = new Map<string, Resources>();
  for (const pod of pods) {
    const node = specOf(pod).nodeName;
    if (typeof node === 'string')
      requested.set(node, addResources(requested.get(node) ?? NO_RESOURCES, podRequests(specOf(pod))));
  }
  const zones = claimZones(volumes);
  const pending: PendingPod[] = pods
    .filter((p) => typeof specOf(p).nodeName !== 'string' && !p.metadata.deletionTimestamp)
    .map((p) => ({
      ...constrained(p),
      key: `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`,
      requests: podRequests(specOf(p)),
      nodeSelector: (specOf(p).nodeSelector ?? {}) as Record<string, string>,
      tolerations: (Array.isArray(specOf(p).tolerations) ? specOf(p).tolerations : []) as PendingPod['tolerations'],
      volumeZones: claimsOf(p).flatMap((c) => (zones.has(c) ? [zones.get(c)!] : [])),
    }));
  const facts: NodeFacts[] = nodes.map((n) => {
    const status = isRecord(n.status) ? n.status : {};
    const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isRecord) : [];
    return {
      name: n.metadata.name,
      ...(n.metadata.labels?.['topology.kubernetes.io/zone']
        ? { zone: n.metadata.labels['topology.kubernetes.io/zone'] }
        : {}),
      ready: conditions.some((c) => c.type === 'Ready' && c.status === 'True'),
      unschedulable: specOf(n).unschedulable === true,
      labels: n.metadata.labels ?? {},
      taints: (Array.isArray(specOf(n).taints) ? specOf(n).taints : []) as Taint[],
      ...(status.allocatable ? { allocatable: resourcesOf(status.allocatable) } : {}),
      requested: requested.get(n.metadata.name) ?? NO_RESOURCES,
    };
  });
  const placed: PlacedPod[] = pods.flatMap((p) =>
    typeof specOf(p).nodeName === 'string'
      ? [
          {
            ...constrained(p),
            nodeName: specOf(p).nodeName as string,
            terminating: p.metadata.deletionTimestamp !== undefined,
          },
        ]
      : [],
  );
  const nodePoolsAtLimit = nodePoolsAtLimitOf(await kube.list('NodePool').catch(() => []));
  return { pending, nodes: facts, placed, ...(nodePoolsAtLimit.length ? { nodePoolsAtLimit } : {}) };
}
