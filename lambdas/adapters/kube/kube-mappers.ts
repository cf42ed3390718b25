/** client-node models → the KubeCluster port's plain records (dates as ISO strings). */
import type { V1Node, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import type {
  LabelSelector,
  NodeInfo,
  NodePatch,
  PdbInfo,
  PodInfo,
  Taint,
  VolumeAttachmentInfo,
  WorkloadReadiness,
  WorkloadRef,
} from '../../ports/kube-cluster';

const ZONE_LABELS = ['topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'];
const TAINT_EFFECTS: ReadonlySet<string> = new Set(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);

/** ISO 8601 with milliseconds, whether the API said `2026-01-01T00:00:00Z` or a Date came in. */
export function iso(value: Date | string | undefined): string {
  if (value === undefined || value === null) return '';
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
}

export function toNodeInfo(node: V1Node): NodeInfo {
  const labels = node.metadata?.labels ?? {};
  const zone = ZONE_LABELS.map((key) => labels[key]).find(Boolean);
  const readyCondition = (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const ready = readyCondition?.status === 'True';
  const why = !ready && readyCondition?.reason ? readyCondition : undefined;
  return {
    name: node.metadata?.name ?? '',
    providerId: node.spec?.providerID ?? '',
    labels,
    annotations: node.metadata?.annotations ?? {},
    taints: (node.spec?.taints ?? []).map((t): Taint => ({
      key: t.key,
      ...(t.value !== undefined && t.value !== '' ? { value: t.value } : {}),
      effect: (TAINT_EFFECTS.has(t.effect) ? t.effect : 'NoSchedule') as Taint['effect'],
    })),
    unschedulable: node.spec?.unschedulable === true,
    ready,
    ...(why ? { notReadyReason: why.message ? `${why.reason}: ${why.message}` : why.reason! } : {}),
    ...(!ready && readyCondition?.lastTransitionTime ? { notReadySince: iso(readyCondition.lastTransitionTime) } : {}),
    volumesAttached: (node.status?.volumesAttached ?? []).length > 0,
    ...(zone ? { zone } : {}),
    createdAt: iso(node.metadata?.creationTimestamp),
    ...(node.status?.nodeInfo?.kubeletVersion ? { kubeletVersion: node.status.nodeInfo.kubeletVersion } : {}),
  };
}

export function toPodInfo(pod: V1Pod): PodInfo {
  const owner = pod.metadata?.ownerReferences?.[0];
  return {
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
    uid: pod.metadata?.uid ?? '',
    ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    phase: pod.status?.phase ?? 'Unknown',
    ready: (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
    labels: pod.metadata?.labels ?? {},
    annotations: pod.metadata?.annotations ?? {},
    ...(owner ? { owner: { kind: owner.kind, name: owner.name } } : {}),
    createdAt: iso(pod.metadata?.creationTimestamp),
    terminationGracePeriodSeconds: pod.spec?.terminationGracePeriodSeconds ?? 30,
    deleting: pod.metadata?.deletionTimestamp !== undefined && pod.metadata?.deletionTimestamp !== null,
    ...(pod.metadata?.deletionTimestamp ? { deletesBy: iso(pod.metadata.deletionTimestamp) } : {}),
  };
}

export function toPdbInfo(pdb: V1PodDisruptionBudget): PdbInfo {
  const selector = pdb.spec?.selector;
  const mapped: LabelSelector = {
    ...(selector?.matchLabels ? { matchLabels: selector.matchLabels } : {}),
    ...(selector?.matchExpressions
      ? {
          matchExpressions: selector.matchExpressions.map((e) => ({
            key: e.key,
            operator: e.operator,
            ...(e.values ? { values: e.values } : {}),
          })),
        }
      : {}),
  };
  return {
    namespace: pdb.metadata?.namespace ?? '',
    name: pdb.metadata?.name ?? '',
    selector: mapped,
    ...(pdb.spec?.minAvailable !== undefined ? { minAvailable: pdb.spec.minAvailable } : {}),
    ...(pdb.spec?.maxUnavailable !== undefined ? { maxUnavailable: pdb.spec.maxUnavailable } : {}),
    disruptionsAllowed: pdb.status?.disruptionsAllowed ?? 0,
    currentHealthy: pdb.status?.currentHealthy ?? 0,
    desiredHealthy: pdb.status?.desiredHealthy ?? 0,
    expectedPods: pdb.status?.expectedPods ?? 0,
  };
}

/** One strategic merge patch: cordon flag, labels/annotations (null removes), taints replaced as a whole. */
export function nodePatchBody(patch: NodePatch): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  if (patch.labels) metadata.labels = patch.labels;
  if (patch.annotations) metadata.annotations = patch.annotations;
  const spec: Record<string, unknown> = {};
  if (patch.unschedulable !== undefined) spec.unschedulable = patch.unschedulable;
  // Node.spec.taints has no patch merge key, so a strategic merge patch replaces the list.
  if (patch.taints)
    spec.taints = patch.taints.map((t) => ({
      key: t.key,
      ...(t.value !== undefined ? { value: t.value } : {}),
      effect: t.effect,
    }));
  return { ...(Object.keys(metadata).length ? { metadata } : {}), ...(Object.keys(spec).length ? { spec } : {}) };
}

/** storage.k8s.io/v1 VolumeAttachment, the fields the roll reads. */
export interface VolumeAttachmentJson {
  readonly metadata?: { readonly name?: string };
  readonly spec?: { readonly nodeName?: string; readonly source?: { readonly persistentVolumeName?: string } };
  readonly status?: { readonly attached?: boolean };
}

export function toVolumeAttachmentInfo(va: VolumeAttachmentJson): VolumeAttachmentInfo {
  const pv = va.spec?.source?.persistentVolumeName;
  return {
    name: va.metadata?.name ?? '',
    nodeName: va.spec?.nodeName ?? '',
    ...(pv ? { persistentVolumeName: pv } : {}),
    attached: va.status?.attached === true,
  };
}

const WORKLOAD_PLURALS: Readonly<Record<string, string>> = {
  ReplicaSet: 'replicasets',
  StatefulSet: 'statefulsets',
  Deployment: 'deployments',
};

/** The apps/v1 path of a pod owner whose readiness the roll checks; undefined for other kinds (Job, DaemonSet…). */
export function workloadPath(ref: WorkloadRef): string | undefined {
  const plural = WORKLOAD_PLURALS[ref.kind];
  return plural
    ? `/apis/apps/v1/namespaces/${encodeURIComponent(ref.namespace)}/${plural}/${encodeURIComponent(ref.name)}`
    : undefined;
}

export function toWorkloadReadiness(body: unknown): WorkloadReadiness {
  const object = body as { spec?: { replicas?: number }; status?: { readyReplicas?: number } };
  return { desired: object.spec?.replicas ?? 1, ready: object.status?.readyReplicas ?? 0 };
}
