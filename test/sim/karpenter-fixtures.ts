// The objects a simulated Karpenter needs and a workload for it: its CRDs, the controller Deployment, an
// EC2NodeClass, the NodePool `burst` and a Deployment whose pods only its nodes take.
import type { KubeObject, Taint } from '../../lambdas/ports/kube-cluster';

const crd = (kind: string, group: string): KubeObject => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${kind.toLowerCase()}s.${group}` },
  spec: {
    group,
    scope: 'Cluster',
    names: { kind, plural: `${kind.toLowerCase()}s`, singular: kind.toLowerCase() },
    versions: [{ name: 'v1', served: true, storage: true }],
  },
});

export const KARPENTER_CRDS: KubeObject[] = [
  crd('NodePool', 'karpenter.sh'),
  crd('NodeClaim', 'karpenter.sh'),
  crd('EC2NodeClass', 'karpenter.k8s.aws'),
];

/** The controller: the simulated Karpenter acts once it has a Ready replica. */
export const KARPENTER_CONTROLLER: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'karpenter', namespace: 'kube-system' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'karpenter' } },
    template: { metadata: { labels: { app: 'karpenter' } }, spec: {} },
  },
};

export const burstNodeClass = (ami: string): KubeObject => ({
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'burst' },
  spec: { amiSelectorTerms: [{ id: ami }] },
});

/** The NodePool `burst`: kubelet maxPods 2, with the taints given. */
export const burstNodePool = (taints: readonly Taint[] = []): KubeObject => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'burst' },
  spec: {
    template: {
      metadata: { labels: { 'node.kubernetes.io/node-pool': 'burst' } },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'burst' },
        ...(taints.length ? { taints } : {}),
        kubelet: { maxPods: 2 },
      },
    },
  },
});

/** The Deployment `batch`: `replicas` pods that only burst's nodes take (tolerating its taints). */
export const batchDeployment = (replicas: number, taints: readonly Taint[] = []): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'batch', namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'batch' } },
    template: {
      metadata: { labels: { app: 'batch' } },
      spec: {
        nodeSelector: { 'node.kubernetes.io/node-pool': 'burst' },
        ...(taints.length
          ? { tolerations: taints.map((t) => ({ key: t.key, operator: 'Equal', value: t.value, effect: t.effect })) }
          : {}),
      },
    },
  },
});
