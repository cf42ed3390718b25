import { KubeApiError } from '../../shared/errors';
import type { KindInfo, KubeState } from '../world-state';

/**
 * Kind resolution as API discovery does it: Kind, singular or plural, any case, or `resource.version.group`
 * (`deployments.v1.apps`) and `resource.group`. Built-in kinds come from a table; applied CRDs add theirs.
 */

const k = (
  kind: string,
  group: string,
  versions: string[],
  namespaced: boolean,
  plural = `${kind.toLowerCase()}s`,
): KindInfo => ({
  kind,
  plural,
  singular: kind.toLowerCase(),
  group,
  versions,
  namespaced,
});

export const BUILTIN_KINDS: readonly KindInfo[] = [
  k('Namespace', '', ['v1'], false),
  k('Node', '', ['v1'], false),
  k('Pod', '', ['v1'], true),
  k('ConfigMap', '', ['v1'], true),
  k('Secret', '', ['v1'], true),
  k('Service', '', ['v1'], true),
  k('ServiceAccount', '', ['v1'], true),
  k('Endpoints', '', ['v1'], true, 'endpoints'),
  k('Event', '', ['v1'], true),
  k('LimitRange', '', ['v1'], true),
  k('ResourceQuota', '', ['v1'], true),
  k('PersistentVolume', '', ['v1'], false),
  k('PersistentVolumeClaim', '', ['v1'], true),
  k('ReplicationController', '', ['v1'], true),
  k('Deployment', 'apps', ['v1'], true),
  k('ReplicaSet', 'apps', ['v1'], true),
  k('StatefulSet', 'apps', ['v1'], true),
  k('DaemonSet', 'apps', ['v1'], true),
  k('ControllerRevision', 'apps', ['v1'], true),
  k('Job', 'batch', ['v1'], true),
  k('CronJob', 'batch', ['v1'], true),
  k('HorizontalPodAutoscaler', 'autoscaling', ['v2', 'v1'], true),
  k('PodDisruptionBudget', 'policy', ['v1'], true),
  k('Ingress', 'networking.k8s.io', ['v1'], true, 'ingresses'),
  k('IngressClass', 'networking.k8s.io', ['v1'], false, 'ingressclasses'),
  k('NetworkPolicy', 'networking.k8s.io', ['v1'], true, 'networkpolicies'),
  k('Role', 'rbac.authorization.k8s.io', ['v1'], true),
  k('RoleBinding', 'rbac.authorization.k8s.io', ['v1'], true),
  k('ClusterRole', 'rbac.authorization.k8s.io', ['v1'], false),
  k('ClusterRoleBinding', 'rbac.authorization.k8s.io', ['v1'], false),
  k('StorageClass', 'storage.k8s.io', ['v1'], false, 'storageclasses'),
  k('CSIDriver', 'storage.k8s.io', ['v1'], false),
  k('VolumeAttachment', 'storage.k8s.io', ['v1'], false),
  k('CustomResourceDefinition', 'apiextensions.k8s.io', ['v1'], false),
  k('APIService', 'apiregistration.k8s.io', ['v1'], false),
  k('MutatingWebhookConfiguration', 'admissionregistration.k8s.io', ['v1'], false),
  k('ValidatingWebhookConfiguration', 'admissionregistration.k8s.io', ['v1'], false),
  k('ValidatingAdmissionPolicy', 'admissionregistration.k8s.io', ['v1'], false, 'validatingadmissionpolicies'),
  k('ValidatingAdmissionPolicyBinding', 'admissionregistration.k8s.io', ['v1'], false),
  k('PriorityClass', 'scheduling.k8s.io', ['v1'], false, 'priorityclasses'),
  k('Lease', 'coordination.k8s.io', ['v1'], true),
  k('EndpointSlice', 'discovery.k8s.io', ['v1'], true),
  k('RuntimeClass', 'node.k8s.io', ['v1'], false, 'runtimeclasses'),
  k('CertificateSigningRequest', 'certificates.k8s.io', ['v1'], false),
  k('FlowSchema', 'flowcontrol.apiserver.k8s.io', ['v1'], false),
  k('PriorityLevelConfiguration', 'flowcontrol.apiserver.k8s.io', ['v1'], false),
];

export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

function allKinds(kube: KubeState): KindInfo[] {
  return [...BUILTIN_KINDS, ...Object.values(kube.customKinds)];
}

const matchesName = (info: KindInfo, name: string): boolean => {
  const lower = name.toLowerCase();
  return info.kind.toLowerCase() === lower || info.plural === lower || info.singular === lower;
};

/** Resolve a kind named in deletions, list or delete calls. Unknown kinds are a KubeApiError. */
export function resolveKind(kube: KubeState, name: string, apiVersion?: string): KindInfo {
  const kinds = allKinds(kube);
  const wanted = apiVersion ? splitApiVersion(apiVersion) : undefined;
  const direct = kinds.filter(
    (info) =>
      matchesName(info, name) && (!wanted || (info.group === wanted.group && info.versions.includes(wanted.version))),
  );
  if (direct.length > 0) return direct[0];
  const [resource, ...rest] = name.split('.');
  if (rest.length > 0) {
    const versioned = /^v\d+((alpha|beta)\d+)?$/.test(rest[0]);
    const version = versioned ? rest[0] : undefined;
    const group = (versioned ? rest.slice(1) : rest).join('.');
    const found = kinds.find(
      (info) => matchesName(info, resource) && info.group === group && (!version || info.versions.includes(version)),
    );
    if (found) return found;
  }
  throw new KubeApiError(`the server doesn't have a resource type "${name}"${apiVersion ? ` in ${apiVersion}` : ''}`);
}

/** The kind of an object being applied, by its apiVersion and kind. */
export function kindForObject(kube: KubeState, apiVersion: string, kind: string): KindInfo {
  const { group, version } = splitApiVersion(apiVersion);
  const found = allKinds(kube).find(
    (info) => info.kind === kind && info.group === group && info.versions.includes(version),
  );
  if (!found) throw new KubeApiError(`no matches for kind "${kind}" in version "${apiVersion}"`);
  return found;
}

/** Register the kind a CustomResourceDefinition declares. */
export function registerCrd(kube: KubeState, crd: Record<string, unknown>): void {
  const spec = (crd.spec ?? {}) as Record<string, unknown>;
  const names = (spec.names ?? {}) as Record<string, unknown>;
  if (typeof names.kind !== 'string' || typeof spec.group !== 'string') return;
  const versions = Array.isArray(spec.versions)
    ? spec.versions.map((v) => String((v as Record<string, unknown>).name))
    : [];
  kube.customKinds[names.kind.toLowerCase()] = {
    kind: names.kind,
    plural: String(names.plural ?? `${names.kind.toLowerCase()}s`).toLowerCase(),
    singular: String(names.singular ?? names.kind).toLowerCase(),
    group: spec.group,
    versions: versions.length > 0 ? versions : ['v1'],
    namespaced: spec.scope !== 'Cluster',
  };
}

export function objectKey(info: KindInfo, namespace: string | undefined, name: string): string {
  return `${info.group}/${info.kind}/${info.namespaced ? (namespace ?? 'default') : ''}/${name}`;
}
