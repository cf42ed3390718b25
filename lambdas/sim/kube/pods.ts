import type { KubeObject, PodInfo } from '../../ports/kube-cluster';
import { onLostNode } from './node-incidents';
import type { SimContext } from '../sim-context';
import type { KubeState, PodOwner, SimPod, TolerationSpec } from '../world-state';
import { matches, parseSelector } from '../../core/kube/label-selector';
import { attachVolumes, detachVolumes } from './volume-attachments';
import type { Resources } from '../../core/kube/pod-resources';

/**
 * Pod lifecycle: created Pending, bound to a node by the scheduler, Ready `podStartSeconds` later (unless a
 * scenario fault says never), Terminating for its grace period when deleted or evicted, then gone.
 */

export const POD_NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export interface PodInit {
  readonly namespace: string;
  readonly name: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
  readonly owner?: PodOwner;
  readonly nodeName?: string;
  readonly grace?: number;
  readonly nodeSelector?: Record<string, string>;
  readonly tolerations?: readonly TolerationSpec[];
  readonly affinity?: unknown;
  readonly topologySpreadConstraints?: unknown;
  readonly volumes?: readonly string[];
  readonly requests?: Resources;
}

export const podKey = (namespace: string, name: string): string => `${namespace}/${name}`;

/** A pod (template) annotation: the pod's readiness probe never passes, as a workload that cannot start. */
export const NEVER_READY_ANNOTATION = 'simulate.clm.io/never-ready';

function neverReady(ctx: SimContext, clusterId: string, init: PodInit): boolean {
  if (init.annotations?.[NEVER_READY_ANNOTATION] === 'true') return true;
  return ctx.state.scenario.faults.podsNeverReady.some(
    (fault) =>
      (!fault.cluster || fault.cluster === clusterId) &&
      (!fault.namespace || fault.namespace === init.namespace) &&
      (!fault.namePrefix || init.name.startsWith(fault.namePrefix)) &&
      (!fault.labelSelector || matches(parseSelector(fault.labelSelector), init.labels ?? {})),
  );
}

export function createPod(ctx: SimContext, kube: KubeState, init: PodInit): SimPod {
  const pod: SimPod = {
    uid: ctx.rng.uuid(),
    namespace: init.namespace,
    name: init.name,
    labels: { ...init.labels },
    annotations: { ...init.annotations },
    ...(init.owner ? { owner: init.owner } : {}),
    phase: 'Pending',
    ready: false,
    createdAt: ctx.now,
    grace: init.grace ?? ctx.timings.podTerminationSeconds,
    ...(init.nodeSelector ? { nodeSelector: init.nodeSelector } : {}),
    ...(init.tolerations ? { tolerations: init.tolerations } : {}),
    ...(init.affinity ? { affinity: init.affinity } : {}),
    ...(init.topologySpreadConstraints ? { topologySpreadConstraints: init.topologySpreadConstraints } : {}),
    ...(init.volumes?.length ? { volumes: init.volumes } : {}),
    ...(init.requests && (init.requests.cpuMillis || init.requests.memoryBytes) ? { requests: init.requests } : {}),
    ...(neverReady(ctx, kube.clusterId, init) ? { neverReady: true } : {}),
    seq: ctx.nextSeq(),
  };
  kube.pods[podKey(pod.namespace, pod.name)] = pod;
  ctx.dirty.add(kube.clusterId);
  if (init.nodeName && kube.nodes[init.nodeName]) bindPod(ctx, kube, pod, init.nodeName);
  return pod;
}

/** Place a pod on a node; its volumes bind to that node's zone the first time. */
export function bindPod(ctx: SimContext, kube: KubeState, pod: SimPod, nodeName: string): void {
  pod.nodeName = nodeName;
  const zone = kube.nodes[nodeName]?.zone;
  for (const volume of pod.volumes ?? []) if (zone && !kube.volumes[volume]) kube.volumes[volume] = zone;
  attachVolumes(kube, pod, nodeName);
  // A never-ready pod's containers start too; only its readiness probe never passes (Running, not Ready).
  ctx.schedule(ctx.timings.podStartSeconds, {
    type: 'pod-ready',
    cluster: kube.clusterId,
    pod: podKey(pod.namespace, pod.name),
    uid: pod.uid,
  });
}

/** Delete a pod: unscheduled pods and grace 0 go at once, others stay Terminating for the grace period. */
export function beginPodDeletion(ctx: SimContext, kube: KubeState, pod: SimPod, graceSeconds?: number): void {
  if (pod.deletingAt !== undefined) return;
  const grace = graceSeconds ?? pod.grace;
  ctx.dirty.add(kube.clusterId);
  // A lost node's kubelet never unmounts: its volumes stay attached until the node goes (kube/node-incidents.ts).
  const lost = onLostNode(kube, pod.nodeName);
  if (!pod.nodeName || grace <= 0) {
    if (pod.nodeName && !lost) detachVolumes(ctx, kube, pod, pod.nodeName);
    removePod(kube, pod);
    return;
  }
  pod.deletingAt = ctx.now;
  pod.goneBy = ctx.now + grace * 1000;
  pod.ready = false;
  if (lost) return; // Terminating until the node goes or the pod is deleted with grace 0: no kubelet confirms it
  ctx.schedule(grace, {
    type: 'pod-gone',
    cluster: kube.clusterId,
    pod: podKey(pod.namespace, pod.name),
    uid: pod.uid,
  });
}

export function removePod(kube: KubeState, pod: SimPod): void {
  const key = podKey(pod.namespace, pod.name);
  if (kube.pods[key]?.uid === pod.uid) delete kube.pods[key];
}

function current(kube: KubeState, key: string, uid: string): SimPod | undefined {
  const pod = kube.pods[key];
  return pod && pod.uid === uid ? pod : undefined;
}

/** The pod-ready event. */
export function podStarted(ctx: SimContext, kube: KubeState, key: string, uid: string): void {
  const pod = current(kube, key, uid);
  if (!pod || pod.deletingAt !== undefined || !pod.nodeName || onLostNode(kube, pod.nodeName)) return;
  // Readiness drives the rolling updates of StatefulSets and DaemonSets (the next pod goes once every pod is Ready,
  // workloads.ts rollOne) and Karpenter, which starts acting once its own pod is Ready (sim/karpenter.ts): those
  // settle again; a Deployment's or bare pod's readiness changes no controller's decision.
  pod.phase = 'Running';
  pod.ready = !pod.neverReady;
  const rolling = pod.owner?.kind === 'StatefulSet' || pod.owner?.kind === 'DaemonSet';
  if (rolling || kube.customKinds.nodepool) ctx.dirty.add(kube.clusterId);
}

/** The pod-gone event. */
export function podTerminated(ctx: SimContext, kube: KubeState, key: string, uid: string): void {
  const pod = current(kube, key, uid);
  if (!pod) return;
  if (pod.nodeName) detachVolumes(ctx, kube, pod, pod.nodeName);
  removePod(kube, pod);
  ctx.dirty.add(kube.clusterId);
}

/** Ready and not being deleted: what the disruption controller counts as healthy. */
export function isHealthy(pod: SimPod): boolean {
  return pod.ready && pod.deletingAt === undefined;
}

export function podInfo(ctx: SimContext, pod: SimPod): PodInfo {
  return {
    namespace: pod.namespace,
    name: pod.name,
    uid: pod.uid,
    ...(pod.nodeName ? { nodeName: pod.nodeName } : {}),
    phase: pod.phase,
    ready: pod.ready,
    labels: { ...pod.labels },
    annotations: { ...pod.annotations },
    ...(pod.owner ? { owner: { kind: pod.owner.kind, name: pod.owner.name } } : {}),
    createdAt: ctx.iso(pod.createdAt),
    terminationGracePeriodSeconds: pod.grace,
    deleting: pod.deletingAt !== undefined,
    ...(pod.goneBy !== undefined ? { deletesBy: ctx.iso(pod.goneBy) } : {}),
  };
}

export function podObject(ctx: SimContext, pod: SimPod): KubeObject {
  const ownerReferences = pod.owner
    ? [{ apiVersion: 'apps/v1', kind: pod.owner.kind, name: pod.owner.name, uid: pod.owner.uid, controller: true }]
    : undefined;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: pod.name,
      namespace: pod.namespace,
      uid: pod.uid,
      labels: { ...pod.labels },
      annotations: { ...pod.annotations },
      creationTimestamp: ctx.iso(pod.createdAt),
      ...(ownerReferences ? { ownerReferences } : {}),
      ...(pod.deletingAt !== undefined ? { deletionTimestamp: ctx.iso(pod.deletingAt) } : {}),
    },
    spec: {
      ...(pod.nodeName ? { nodeName: pod.nodeName } : {}),
      ...(pod.nodeSelector ? { nodeSelector: pod.nodeSelector } : {}),
      ...(pod.tolerations ? { tolerations: pod.tolerations } : {}),
      ...(pod.affinity ? { affinity: pod.affinity } : {}),
      ...(pod.topologySpreadConstraints ? { topologySpreadConstraints: pod.topologySpreadConstraints } : {}),
      ...(pod.requests ? { containers: [{ name: 'main', resources: { requests: requestList(pod.requests) } }] } : {}),
      ...(pod.volumes?.length ? { volumes: pod.volumes.map(claimVolume) } : {}),
      terminationGracePeriodSeconds: pod.grace,
    },
    status: { phase: pod.phase, conditions: [{ type: 'Ready', status: pod.ready ? 'True' : 'False' }] },
  };
}

/** Requests in the API's words: `250m`, `268435456`. */
function requestList(requests: Resources): Record<string, string> {
  return { cpu: `${requests.cpuMillis}m`, memory: String(requests.memoryBytes) };
}

/** A PVC key `<namespace>/<claim>` as the pod's volume. */
function claimVolume(key: string): { name: string; persistentVolumeClaim: { claimName: string } } {
  const claimName = key.slice(key.indexOf('/') + 1);
  return { name: claimName, persistentVolumeClaim: { claimName } };
}
