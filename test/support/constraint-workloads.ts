import type { KubeObject } from '../../lambdas/ports/kube-cluster';

/**
 * Workloads whose placement kube-scheduler's hard constraints decide, on three workers in three zones (the
 * simulator's and the integration suite's KWOK nodes alike). The third worker (`full`) is filled by `filler` up to
 * 50m of CPU. By the Kubernetes scheduling docs, what stays Pending:
 * - solo (4 replicas, required anti-affinity per hostname): one node each, the 4th nowhere;
 * - zonal (4 replicas, required anti-affinity per zone): one zone each, the 4th nowhere;
 * - ssd (required node affinity disktype In ssd): no node has the label;
 * - spread (3 replicas of 100m, maxSkew 1 per hostname, DoNotSchedule): one on each worker with room; the full worker
 *   still counts as a domain with 0, so a second on either would make a skew of 2.
 */
export const NAMESPACE = 'constraints';
export const EXPECTED_PENDING = { filler: 0, solo: 1, zonal: 1, ssd: 1, spread: 1 } as const;

const WORKER = { 'node.kubernetes.io/role': 'worker' };

function deployment(name: string, replicas: number, cpuMillis: number, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NAMESPACE },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name, image: 'x', resources: { requests: { cpu: `${cpuMillis}m`, memory: '16Mi' } } }],
          ...spec,
        },
      },
    },
  };
}

const apart = (app: string, topologyKey: string) => ({
  nodeSelector: WORKER,
  affinity: {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app } }, topologyKey }],
    },
  },
});

/** The filler first (the caller waits for it to be placed), then the constrained workloads. */
export function constraintWorkloads(full: string, fullCpuMillis: number): { filler: KubeObject[]; rest: KubeObject[] } {
  const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } };
  const ssd = {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'disktype', operator: 'In', values: ['ssd'] }] }],
      },
    },
  };
  const spread = {
    nodeSelector: WORKER,
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 'spread' } },
      },
    ],
  };
  return {
    filler: [
      namespace,
      deployment('filler', 1, fullCpuMillis - 50, { nodeSelector: { 'kubernetes.io/hostname': full } }),
    ],
    rest: [
      deployment('solo', 4, 10, apart('solo', 'kubernetes.io/hostname')),
      deployment('zonal', 4, 10, apart('zonal', 'topology.kubernetes.io/zone')),
      deployment('ssd', 1, 10, { affinity: ssd }),
      deployment('spread', 3, 100, spread),
    ],
  };
}

/** Pending pods per workload (by the pod name's prefix). */
export function pendingOf(pods: readonly { name: string; nodeName?: string | undefined }[]): Record<string, number> {
  return Object.fromEntries(
    Object.keys(EXPECTED_PENDING).map((app) => [
      app,
      pods.filter((p) => p.name.startsWith(`${app}-`) && !p.nodeName).length,
    ]),
  );
}
