/**
 * The records FakeKubeCluster keeps (nodes, pods, workloads, PDBs) and how the KubeCluster port sees them: a pod is
 * healthy once it runs Ready on a node and is not terminating.
 */
import type { LabelSelector, NodeInfo, PodInfo, Taint } from '../../../lambdas/ports/kube-cluster';

export interface FakeNode {
  name: string;
  providerId: string;
  zone: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  taints: Taint[];
  unschedulable: boolean;
  ready: boolean;
  createdAt: string;
  kubeletVersion?: string;
}

export interface FakePod {
  namespace: string;
  name: string;
  uid: string;
  nodeName?: string;
  phase: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  owner?: { kind: string; name: string };
  createdAt: number;
  /** Ready from this time on (undefined: never). */
  readyAt?: number;
  grace: number;
  deletingAt?: number;
  /** StatefulSet pods: their volume lives in this zone. */
  zone?: string;
}

export interface FakeWorkload {
  kind: 'Deployment' | 'StatefulSet';
  namespace: string;
  name: string;
  replicas: number;
  labels: Record<string, string>;
  grace: number;
}

export interface FakePdb {
  namespace: string;
  name: string;
  selector: LabelSelector;
  minAvailable: number;
}

/** Running and Ready on a node at `now`, and not terminating. */
export function isHealthy(pod: FakePod, now: number): boolean {
  return (
    pod.deletingAt === undefined &&
    pod.nodeName !== undefined &&
    pod.readyAt !== undefined &&
    now >= pod.readyAt &&
    pod.phase === 'Running'
  );
}

/** The port's view of a node; it has volumes attached when a StatefulSet pod runs on it. */
export function nodeInfo(n: FakeNode, pods: readonly FakePod[]): NodeInfo {
  return {
    name: n.name,
    providerId: n.providerId,
    labels: { ...n.labels },
    annotations: { ...n.annotations },
    taints: [...n.taints],
    unschedulable: n.unschedulable,
    ready: n.ready,
    volumesAttached: pods.some((p) => p.nodeName === n.name && p.owner?.kind === 'StatefulSet'),
    zone: n.zone,
    createdAt: n.createdAt,
    ...(n.kubeletVersion ? { kubeletVersion: n.kubeletVersion } : {}),
  };
}

/** The port's view of a pod at `now`: Pending without a node, still Ready while it terminates. */
export function podInfo(p: FakePod, now: number): PodInfo {
  return {
    namespace: p.namespace,
    name: p.name,
    uid: p.uid,
    ...(p.nodeName ? { nodeName: p.nodeName } : {}),
    phase: p.nodeName ? p.phase : 'Pending',
    ready: isHealthy(p, now) || (p.deletingAt !== undefined && p.readyAt !== undefined),
    labels: { ...p.labels },
    annotations: { ...p.annotations },
    ...(p.owner ? { owner: { ...p.owner } } : {}),
    createdAt: new Date(p.createdAt).toISOString(),
    terminationGracePeriodSeconds: p.grace,
    deleting: p.deletingAt !== undefined,
    ...(p.deletingAt !== undefined ? { deletesBy: new Date(p.deletingAt + p.grace * 1000).toISOString() } : {}),
  };
}
