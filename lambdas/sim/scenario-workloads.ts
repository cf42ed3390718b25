import type { KubeObject } from '../ports/kube-cluster';
import type { PdbSpec, Workload } from './scenario';

/** A scenario's compact workloads and PDBs as the Kubernetes objects they stand for. */

export function workloadObjects(workload: Workload): KubeObject {
  const labels = workload.labels ?? { app: workload.name };
  const metadata = { name: workload.name, namespace: workload.namespace, labels };
  const podSpec = {
    containers: [{ name: 'main', image: `registry.example/${workload.name}:1` }],
    ...(workload.nodeSelector ? { nodeSelector: workload.nodeSelector } : {}),
    ...(workload.tolerations ? { tolerations: workload.tolerations } : {}),
    ...(workload.terminationGracePeriodSeconds !== undefined
      ? { terminationGracePeriodSeconds: workload.terminationGracePeriodSeconds }
      : {}),
  };
  const template = { metadata: { labels }, spec: podSpec };
  switch (workload.kind) {
    case 'Pod':
      return { apiVersion: 'v1', kind: 'Pod', metadata, spec: podSpec };
    case 'DaemonSet':
      return {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata,
        spec: { selector: { matchLabels: labels }, template },
      };
    case 'StatefulSet':
      return {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata,
        spec: {
          replicas: workload.replicas,
          serviceName: workload.name,
          selector: { matchLabels: labels },
          template,
          volumeClaimTemplates: (workload.volumeClaims ?? []).map((name) => ({
            metadata: { name },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          })),
        },
      };
    case 'Deployment':
      return {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata,
        spec: { replicas: workload.replicas, selector: { matchLabels: labels }, template },
      };
  }
}

export function pdbObject(pdb: PdbSpec): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: pdb.name, namespace: pdb.namespace },
    spec: {
      selector: { matchLabels: pdb.selector },
      ...(pdb.minAvailable !== undefined ? { minAvailable: pdb.minAvailable } : {}),
      ...(pdb.maxUnavailable !== undefined ? { maxUnavailable: pdb.maxUnavailable } : {}),
    },
  };
}

export function namespaceObject(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}
