import type { KubeObject, ObjectRef } from '../../ports/kube-cluster';
import { NotFoundError } from '../../shared/errors';
import type { SimContext } from '../sim-context';
import type { KubeState } from '../world-state';
import { objectKey, resolveKind } from './kinds';
import { matches, parseSelector } from '../../core/kube/label-selector';
import { nodeObject, nodesWithVolumes } from './nodes';
import { pdbStatus } from './pdb';
import { podKey, podObject } from './pods';
import { metaOf, serverMetadata, specOf } from './stored';
import { workloadStatus } from './workload-status';
import { managedFieldsOf } from './field-managers';
import { claimObjects, volumeObjects } from './volume-objects';

/**
 * The object store of a simulated cluster: its initial namespaces, list (with computed status), annotate and
 * scale. Apply is in apply-objects.ts, delete (with cascading) in delete-object.ts.
 */

export const DEFAULT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export function newKubeState(ctx: SimContext, clusterId: string): KubeState {
  const kube: KubeState = { clusterId, objects: {}, pods: {}, nodes: {}, customKinds: {}, volumes: {} };
  for (const name of DEFAULT_NAMESPACES) {
    kube.objects[`/Namespace//${name}`] = {
      seq: ctx.nextSeq(),
      obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...serverMetadata(ctx) } },
    };
  }
  return kube;
}

export function listObjects(
  ctx: SimContext,
  kube: KubeState,
  kind: string,
  options: { namespace?: string; labelSelector?: string } = {},
): KubeObject[] {
  const info = resolveKind(kube, kind);
  const requirements = parseSelector(options.labelSelector);
  const inNamespace = (namespace: string | undefined): boolean =>
    !options.namespace || !info.namespaced || namespace === options.namespace;
  if (info.kind === 'Pod') {
    return Object.values(kube.pods)
      .filter((pod) => inNamespace(pod.namespace) && matches(requirements, pod.labels))
      .sort((a, b) => (podKey(a.namespace, a.name) < podKey(b.namespace, b.name) ? -1 : 1))
      .map((pod) => podObject(ctx, pod));
  }
  if (info.kind === 'Node') {
    const withVolumes = nodesWithVolumes(kube);
    return Object.values(kube.nodes)
      .filter((node) => matches(requirements, node.labels))
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((node) => nodeObject(ctx, kube, node, withVolumes));
  }
  // The StatefulSets' claims and their volumes (kube/volume-objects.ts), before those applied as objects.
  const made =
    info.kind === 'PersistentVolumeClaim'
      ? claimObjects(ctx, kube, options.namespace)
      : info.kind === 'PersistentVolume'
        ? volumeObjects(ctx, kube)
        : [];
  const madeNames = new Set(made.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`));
  const stored = Object.entries(kube.objects)
    .filter(([key]) => key.startsWith(`${info.group}/${info.kind}/`))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, stored]) => stored)
    .filter(
      (stored) =>
        inNamespace(metaOf(stored.obj).namespace as string | undefined) &&
        matches(requirements, (metaOf(stored.obj).labels ?? {}) as Record<string, string>),
    )
    .map((stored) => {
      const status =
        info.kind === 'PodDisruptionBudget'
          ? pdbStatus(ctx, kube, stored)
          : info.kind === 'CustomResourceDefinition'
            ? crdStatus(stored.obj)
            : workloadStatus(kube, info.kind, stored);
      const managedFields = managedFieldsOf(stored, String(stored.obj.apiVersion ?? ''));
      const metadata = { ...metaOf(stored.obj), ...(managedFields.length ? { managedFields } : {}) };
      return structuredClone({ ...stored.obj, metadata, ...(status ? { status } : {}) }) as KubeObject;
    });
  return [
    ...made.filter((o) => matches(requirements, o.metadata.labels ?? {})),
    ...stored.filter((o) => !madeNames.has(`${o.metadata.namespace ?? ''}/${o.metadata.name}`)),
  ];
}

/**
 * A CRD's conditions: its names accepted and Established as soon as it is stored (the name must be `<plural>.<group>`,
 * so two CRDs cannot claim one plural; the real API server establishes within moments).
 */
function crdStatus(obj: Record<string, unknown>): Record<string, unknown> {
  const spec = specOf(obj) as { names?: Record<string, unknown> };
  const condition = (type: string, ok: boolean, reason: string) => ({ type, status: ok ? 'True' : 'False', reason });
  return {
    acceptedNames: spec.names ?? {},
    conditions: [
      condition('NamesAccepted', true, 'NoConflicts'),
      condition('Established', true, 'InitialNamesAccepted'),
    ],
  };
}

export function annotateObject(
  ctx: SimContext,
  kube: KubeState,
  ref: ObjectRef,
  annotations: Readonly<Record<string, string>>,
): void {
  const info = resolveKind(kube, ref.kind, ref.apiVersion);
  const notFound = (): NotFoundError =>
    new NotFoundError(
      `${info.plural} "${ref.name}" not found${ref.namespace ? ` in namespace ${ref.namespace}` : ''}`,
      { location: { clusterId: kube.clusterId } },
    );
  if (info.kind === 'Pod') {
    const pod = kube.pods[podKey(ref.namespace ?? 'default', ref.name)];
    if (!pod) throw notFound();
    Object.assign(pod.annotations, annotations);
    return;
  }
  if (info.kind === 'Node') {
    const node = kube.nodes[ref.name];
    if (!node) throw notFound();
    Object.assign(node.annotations, annotations);
    return;
  }
  const stored = kube.objects[objectKey(info, ref.namespace, ref.name)];
  if (!stored) throw notFound();
  const metadata = metaOf(stored.obj);
  metadata.annotations = { ...((metadata.annotations ?? {}) as Record<string, string>), ...annotations };
  stored.obj.metadata = metadata;
}

export function scaleDeployment(
  ctx: SimContext,
  kube: KubeState,
  namespace: string,
  name: string,
  replicas: number,
): void {
  const stored = kube.objects[`apps/Deployment/${namespace}/${name}`];
  if (!stored)
    throw new NotFoundError(`deployments.apps "${name}" not found in namespace ${namespace}`, {
      location: { clusterId: kube.clusterId },
    });
  const spec = specOf(stored.obj);
  spec.replicas = replicas;
  stored.obj.spec = spec;
  ctx.dirty.add(kube.clusterId);
}
