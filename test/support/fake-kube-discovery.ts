/**
 * What the fake Kubernetes API (fake-kube-api.ts) serves as discovery: the built-in resources, their subresources,
 * the APIResourceList of a group version, the APIGroupList, and the resources a CRD adds.
 */

export interface FakeResource {
  readonly groupVersion: string;
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

type Obj = Record<string, any>;

/** Served from the start: core/v1, apps/v1, policy/v1, apiextensions.k8s.io/v1 and the CRD group example.org/v1. */
export const BUILTIN_RESOURCES: readonly FakeResource[] = [
  { groupVersion: 'v1', plural: 'namespaces', singular: 'namespace', kind: 'Namespace', namespaced: false },
  { groupVersion: 'v1', plural: 'nodes', singular: 'node', kind: 'Node', namespaced: false },
  { groupVersion: 'v1', plural: 'pods', singular: 'pod', kind: 'Pod', namespaced: true },
  { groupVersion: 'v1', plural: 'configmaps', singular: 'configmap', kind: 'ConfigMap', namespaced: true },
  { groupVersion: 'v1', plural: 'services', singular: 'service', kind: 'Service', namespaced: true },
  { groupVersion: 'apps/v1', plural: 'deployments', singular: 'deployment', kind: 'Deployment', namespaced: true },
  { groupVersion: 'apps/v1', plural: 'daemonsets', singular: 'daemonset', kind: 'DaemonSet', namespaced: true },
  {
    groupVersion: 'policy/v1',
    plural: 'poddisruptionbudgets',
    singular: 'poddisruptionbudget',
    kind: 'PodDisruptionBudget',
    namespaced: true,
  },
  {
    groupVersion: 'apiextensions.k8s.io/v1',
    plural: 'customresourcedefinitions',
    singular: 'customresourcedefinition',
    kind: 'CustomResourceDefinition',
    namespaced: false,
  },
  { groupVersion: 'example.org/v1', plural: 'widgets', singular: 'widget', kind: 'Widget', namespaced: true },
];
const SUBRESOURCES: Record<string, { name: string; kind: string }[]> = {
  'v1/pods': [
    { name: 'pods/eviction', kind: 'Eviction' },
    { name: 'pods/status', kind: 'Pod' },
  ],
  'apps/v1/deployments': [{ name: 'deployments/scale', kind: 'Scale' }],
};

/** `/api/v1` or `/apis/<group>/<version>`: the resources and their subresources. */
export function resourceList(groupVersion: string, served: readonly FakeResource[]): Obj {
  const resources = served.flatMap((x) => [
    {
      name: x.plural,
      singularName: x.singular,
      kind: x.kind,
      namespaced: x.namespaced,
      verbs: ['get', 'list', 'patch', 'delete'],
    },
    ...(SUBRESOURCES[`${groupVersion}/${x.plural}`] ?? []).map((sub) => ({
      ...sub,
      singularName: '',
      namespaced: x.namespaced,
      verbs: ['create', 'get', 'patch'],
    })),
  ]);
  return { kind: 'APIResourceList', groupVersion, resources };
}

/** `/apis`: every group with its versions, the first version preferred. */
export function groupList(resources: readonly FakeResource[]): Obj {
  const groups = new Map<string, string[]>();
  for (const r of resources.filter((x) => x.groupVersion.includes('/'))) {
    const [group, version] = r.groupVersion.split('/');
    groups.set(group, [...new Set([...(groups.get(group) ?? []), version])]);
  }
  return {
    kind: 'APIGroupList',
    groups: [...groups].map(([name, versions]) => ({
      name,
      versions: versions.map((version) => ({ groupVersion: `${name}/${version}`, version })),
      preferredVersion: { groupVersion: `${name}/${versions[0]}`, version: versions[0] },
    })),
  };
}

/** The resources an applied CustomResourceDefinition serves, one per version. */
export function crdResources(crd: Obj): FakeResource[] {
  return (crd.spec?.versions ?? []).map((version: Obj) => ({
    groupVersion: `${crd.spec.group}/${version.name}`,
    plural: crd.spec.names.plural,
    singular: crd.spec.names.singular ?? crd.spec.names.kind.toLowerCase(),
    kind: crd.spec.names.kind,
    namespaced: crd.spec.scope === 'Namespaced',
  }));
}
