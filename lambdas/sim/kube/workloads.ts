import { hashOf } from '../hash';
import { podRequests } from '../../core/kube/pod-resources';
import type { SimContext } from '../sim-context';
import type { KubeState, PodOwner, SimNode, SimPod, TolerationSpec } from '../world-state';
import { POD_NAME_ALPHABET, beginPodDeletion, createPod, podKey } from './pods';
import type { PodInit } from './pods';
import { schedulePending, selectorFits, toleratesHard } from './scheduler';
import {
  labelsOf,
  metaOf,
  nameOf,
  namespaceOf,
  ownersOf,
  replicasOf,
  serverMetadata,
  specOf,
  storedOfKind,
  uidOf,
} from './stored';
import type { Json } from './stored';

/**
 * The controllers: Deployment → ReplicaSet (one per pod template, older ones scaled to 0) → pods;
 * StatefulSet pods `<name>-<i>` with zone-bound volumes, recreated only once the old pod is gone;
 * DaemonSet pods bound straight to every node they tolerate (cordoning does not matter, they never move).
 * A ReplicaSet replaces a pod as soon as it starts terminating, as the real one does.
 */

export function owner(kind: string, obj: Json): PodOwner {
  return { kind, name: nameOf(obj), uid: uidOf(obj) };
}

export function podInit(
  template: Json,
  namespace: string,
  name: string,
  podOwner: PodOwner,
  extraLabels: Record<string, string> = {},
): PodInit {
  const spec = specOf(template);
  return {
    namespace,
    name,
    labels: { ...labelsOf(template), ...extraLabels },
    annotations: { ...((metaOf(template).annotations ?? {}) as Record<string, string>) },
    owner: podOwner,
    ...(typeof spec.terminationGracePeriodSeconds === 'number' ? { grace: spec.terminationGracePeriodSeconds } : {}),
    ...(spec.nodeSelector ? { nodeSelector: spec.nodeSelector as Record<string, string> } : {}),
    ...(Array.isArray(spec.tolerations) ? { tolerations: spec.tolerations as TolerationSpec[] } : {}),
    ...(spec.affinity ? { affinity: spec.affinity } : {}),
    ...(spec.topologySpreadConstraints ? { topologySpreadConstraints: spec.topologySpreadConstraints } : {}),
    requests: podRequests(spec),
  };
}

/** Pods by owner uid, oldest first; built once per pass (the controllers add what they create). */
export type OwnerIndex = Map<string, SimPod[]>;

export function ownerIndex(kube: KubeState): OwnerIndex {
  const index: OwnerIndex = new Map();
  for (const pod of Object.values(kube.pods).sort((a, b) => a.seq - b.seq)) {
    if (!pod.owner) continue;
    const list = index.get(pod.owner.uid);
    if (list) list.push(pod);
    else index.set(pod.owner.uid, [pod]);
  }
  return index;
}

function create(ctx: SimContext, kube: KubeState, index: OwnerIndex, init: PodInit): void {
  const pod = createPod(ctx, kube, init);
  if (pod.owner) index.set(pod.owner.uid, [...(index.get(pod.owner.uid) ?? []), pod]);
}

function uniquePodName(ctx: SimContext, kube: KubeState, namespace: string, base: string): string {
  for (;;) {
    const name = `${base}-${ctx.rng.chars(5, POD_NAME_ALPHABET)}`;
    if (!kube.pods[podKey(namespace, name)]) return name;
  }
}

export function templateHash(template: unknown): string {
  return [...hashOf([JSON.stringify(template ?? {})], 10)]
    .map((digit) => POD_NAME_ALPHABET[parseInt(digit, 16)])
    .join('');
}

function deployments(ctx: SimContext, kube: KubeState): void {
  for (const [, stored] of storedOfKind(kube, 'apps', 'Deployment')) {
    const d = stored.obj;
    stored.observedGeneration = generationOf(d);
    const namespace = namespaceOf(d);
    const template = (specOf(d).template ?? {}) as Json;
    const hash = templateHash(template);
    const rsName = `${nameOf(d)}-${hash}`;
    const rsKey = `apps/ReplicaSet/${namespace}/${rsName}`;
    const want = replicasOf(d);
    const labelled = {
      ...template,
      metadata: { ...metaOf(template), labels: { ...labelsOf(template), 'pod-template-hash': hash } },
    };
    const existing = kube.objects[rsKey];
    if (!existing) {
      kube.objects[rsKey] = {
        seq: ctx.nextSeq(),
        obj: {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: {
            name: rsName,
            namespace,
            labels: labelsOf(labelled),
            ...serverMetadata(ctx),
            ownerReferences: [
              { apiVersion: 'apps/v1', kind: 'Deployment', name: nameOf(d), uid: uidOf(d), controller: true },
            ],
          },
          spec: { replicas: want, selector: specOf(d).selector ?? {}, template: labelled },
        },
      };
    } else if (replicasOf(existing.obj) !== want) specOf(existing.obj).replicas = want;
    for (const [key, rs] of storedOfKind(kube, 'apps', 'ReplicaSet')) {
      if (key !== rsKey && ownersOf(rs.obj).some((ref) => ref.uid === uidOf(d)) && replicasOf(rs.obj) !== 0)
        specOf(rs.obj).replicas = 0;
    }
  }
}

/** Surplus pods go unscheduled first, then not-ready ones, then the newest. */
function surplusOrder(a: SimPod, b: SimPod): number {
  const rank = (pod: SimPod): number => (!pod.nodeName ? 0 : !pod.ready ? 1 : 2);
  return rank(a) - rank(b) || b.seq - a.seq;
}

function replicaSets(ctx: SimContext, kube: KubeState, index: OwnerIndex): void {
  for (const [, stored] of storedOfKind(kube, 'apps', 'ReplicaSet')) {
    const rs = stored.obj;
    const namespace = namespaceOf(rs);
    const active = (index.get(uidOf(rs)) ?? []).filter((pod) => pod.deletingAt === undefined);
    const want = replicasOf(rs);
    const template = (specOf(rs).template ?? {}) as Json;
    for (let i = active.length; i < want; i += 1)
      create(
        ctx,
        kube,
        index,
        podInit(template, namespace, uniquePodName(ctx, kube, namespace, nameOf(rs)), owner('ReplicaSet', rs)),
      );
    for (const pod of active.sort(surplusOrder).slice(0, Math.max(0, active.length - want)))
      beginPodDeletion(ctx, kube, pod);
  }
}

function claimNames(sts: Json): string[] {
  const templates = specOf(sts).volumeClaimTemplates;
  return Array.isArray(templates) ? templates.map((t) => nameOf(t as Json)).filter(Boolean) : [];
}

function statefulSets(ctx: SimContext, kube: KubeState, index: OwnerIndex): void {
  for (const [, stored] of storedOfKind(kube, 'apps', 'StatefulSet')) {
    const sts = stored.obj;
    stored.observedGeneration = generationOf(sts);
    const namespace = namespaceOf(sts);
    const name = nameOf(sts);
    const want = replicasOf(sts);
    const template = (specOf(sts).template ?? {}) as Json;
    const revision = revisionOf(sts);
    for (let i = 0; i < want; i += 1) {
      const podName = `${name}-${i}`;
      if (kube.pods[podKey(namespace, podName)]) continue;
      const init = podInit(template, namespace, podName, owner('StatefulSet', sts), {
        'statefulset.kubernetes.io/pod-name': podName,
        [REVISION_LABEL]: revision,
      });
      create(ctx, kube, index, {
        ...init,
        volumes: claimNames(sts).map((claim) => `${namespace}/${claim}-${podName}`),
      });
    }
    const own = index.get(uidOf(sts)) ?? [];
    for (const pod of own) {
      const ordinal = Number(pod.name.slice(name.length + 1));
      if (ordinal >= want && pod.deletingAt === undefined) beginPodDeletion(ctx, kube, pod);
    }
    if ((specOf(sts).updateStrategy as Json | undefined)?.type !== 'OnDelete') rollOne(ctx, kube, own, revision, true);
  }
}

/**
 * RollingUpdate of a StatefulSet (highest ordinal first) or a DaemonSet (maxUnavailable 1): while every pod is Ready
 * and none is terminating, delete one pod of an older revision; its controller recreates it from the current template.
 */
function rollOne(
  ctx: SimContext,
  kube: KubeState,
  pods: readonly SimPod[],
  revision: string,
  byOrdinal: boolean,
): void {
  if (pods.some((pod) => pod.deletingAt !== undefined || !pod.ready)) return;
  const outdated = pods.filter((pod) => pod.labels[REVISION_LABEL] !== revision);
  const next = byOrdinal ? outdated.sort((a, b) => (a.name < b.name ? 1 : -1))[0] : outdated[0];
  if (next) beginPodDeletion(ctx, kube, next);
}

function daemonSets(ctx: SimContext, kube: KubeState, index: OwnerIndex): void {
  const nodes = Object.values(kube.nodes).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const [, stored] of storedOfKind(kube, 'apps', 'DaemonSet')) {
    const ds = stored.obj;
    stored.observedGeneration = generationOf(ds);
    const template = (specOf(ds).template ?? {}) as Json;
    const revision = revisionOf(ds);
    const init = podInit(template, namespaceOf(ds), '', owner('DaemonSet', ds), { [REVISION_LABEL]: revision });
    const own = index.get(uidOf(ds)) ?? [];
    const onNode = new Set(own.map((pod) => pod.nodeName));
    for (const node of eligibleNodes(nodes, init)) {
      if (onNode.has(node.name)) continue;
      create(ctx, kube, index, {
        ...init,
        name: uniquePodName(ctx, kube, init.namespace, nameOf(ds)),
        nodeName: node.name,
      });
    }
    if ((specOf(ds).updateStrategy as Json | undefined)?.type !== 'OnDelete') rollOne(ctx, kube, own, revision, false);
  }
}

/** The label a StatefulSet's or DaemonSet's pods carry: the revision (pod template) they were made from. */
export const REVISION_LABEL = 'controller-revision-hash';

const generationOf = (obj: Json): number => Number(metaOf(obj).generation ?? 1);
export const revisionOf = (obj: Json): string => `${nameOf(obj)}-${templateHash(specOf(obj).template ?? {})}`;

export function eligibleNodes(nodes: readonly SimNode[], init: PodInit): SimNode[] {
  return nodes.filter((node) => toleratesHard(init.tolerations, node) && selectorFits(init.nodeSelector, node));
}

/** Run every controller once, then the scheduler. */
export function reconcileWorkloads(ctx: SimContext, kube: KubeState): void {
  deployments(ctx, kube);
  const index = ownerIndex(kube);
  replicaSets(ctx, kube, index);
  statefulSets(ctx, kube, index);
  daemonSets(ctx, kube, index);
  schedulePending(ctx, kube);
}
