/**
 * What the manifest checks cost (README "Health after apply" and "Manifest drift"), counted on the real code paths
 * (tasks/fleet/drift-pass.ts, tasks/manifests/await-health.ts) over ports that count their calls:
 * - drift: 1,000 clusters of 300 applied objects (30 components: Deployment, Service, ConfigMap, ServiceAccount,
 *   Role, RoleBinding, PodDisruptionBudget, HorizontalPodAutoscaler, NetworkPolicy, Secret-free), the scheduled pass
 *   every 5 minutes for one hour, every 50th cluster with one Deployment edited by `kubectl edit`;
 * - health: one update's check of its 30 Deployments, which roll out in 60 s, looked at every 10 s.
 */
import type { ResourcesArtifact } from '../lambdas/contracts/artifacts';
import type { Cluster } from '../lambdas/core/model/cluster';
import type { KubeCluster, KubeObject } from '../lambdas/ports/kube-cluster';
import { awaitHealth } from '../lambdas/tasks/manifests/await-health';
import { DRIFT_CHECKS_AT_ONCE, runDriftPass, type DriftPorts } from '../lambdas/tasks/fleet/drift-pass';
import type { BenchResult } from './bench-result';
import { readyCluster } from './ready-cluster';
import { median } from './bench-result';
import { API_CALL_SECONDS } from './simulated-session';

export const name = 'manifest-checks';

const CLUSTERS = 1_000;
const COMPONENTS = 30;
const PERIOD_MS = 5 * 60_000;
const PASSES = 12;
const START = Date.parse('2026-06-01T12:00:00Z');
const KINDS = [
  ['apps/v1', 'Deployment'],
  ['v1', 'Service'],
  ['v1', 'ConfigMap'],
  ['v1', 'ServiceAccount'],
  ['rbac.authorization.k8s.io/v1', 'Role'],
  ['rbac.authorization.k8s.io/v1', 'RoleBinding'],
  ['policy/v1', 'PodDisruptionBudget'],
  ['autoscaling/v2', 'HorizontalPodAutoscaler'],
  ['networking.k8s.io/v1', 'NetworkPolicy'],
  ['v1', 'Endpoints'],
] as const;

export async function run(): Promise<BenchResult[]> {
  const rendered = renderedObjects();
  const drift = await driftHour(rendered);
  const health = await oneHealthCheck(rendered);
  // 16 clusters at once, each its LISTs one after another.
  const perPass = drift.checked / PASSES;
  const listSeconds = Math.ceil(perPass / DRIFT_CHECKS_AT_ONCE) * KINDS.length * API_CALL_SECONDS;
  const listSeconds10k = Math.ceil((perPass * 10) / DRIFT_CHECKS_AT_ONCE) * KINDS.length * API_CALL_SECONDS;
  return [
    {
      name: `drift check, one scheduled pass, ${CLUSTERS.toLocaleString('en')} clusters`,
      value: median(drift.cpuPerPass),
      unit: 'ms',
      note: `CPU median of ${PASSES} passes (5-minute period): ${(drift.checked / PASSES).toFixed(1)} clusters checked per pass (each once an hour), ${rendered.length} objects each`,
    },
    {
      name: '  API calls per pass (LIST per kind)',
      value: Math.round(drift.lists / PASSES),
      unit: 'calls',
      note: `${KINDS.length} LISTs per cluster checked; ${drift.dryRuns} server-side apply dry run(s) in the hour, only for the ${drift.drifted} drifted clusters (${drift.problems} reported as problems); ≈ ${listSeconds.toFixed(1)} s of Lambda time per pass (${DRIFT_CHECKS_AT_ONCE} clusters at once, ${API_CALL_SECONDS} s a call)`,
    },
    {
      name: '  at 10,000 clusters',
      value: Math.round((drift.lists / PASSES) * 10),
      unit: 'calls',
      note: `per 5-minute pass, ≈ ${listSeconds10k.toFixed(0)} s of Lambda time: the staggering keeps it linear (each cluster once an hour)`,
    },
    {
      name: 'health check after apply, one update',
      value: health.cpu,
      unit: 'ms',
      note: `CPU: ${health.checked} workloads judged ${health.looks} times (every 10 s until rolled out after 60 s)`,
    },
    {
      name: '  API calls per update',
      value: health.lists,
      unit: 'calls',
      note: `one LIST per judged kind per look, in one invocation (no extra state transitions while it sleeps); 1,000 updates: ${(health.lists * 1000).toLocaleString('en')} calls`,
    },
  ];
}

/** 30 components of one object of each kind, as rendered. */
function renderedObjects(): KubeObject[] {
  const objects: KubeObject[] = [];
  for (let c = 0; c < COMPONENTS; c++)
    for (const [apiVersion, kind] of KINDS) {
      const namespace = `team-${c}`;
      const name = `app-${c}`;
      const spec =
        kind === 'Deployment'
          ? { replicas: 2, selector: { matchLabels: { app: name } }, template: podTemplate(name) }
          : kind === 'ConfigMap'
            ? undefined
            : { selector: { app: name }, ports: [{ port: 80 + c }] };
      objects.push({
        apiVersion,
        kind,
        metadata: { name, namespace, labels: { app: name, component: `c${c}` } },
        ...(spec ? { spec } : {}),
        ...(kind === 'ConfigMap' ? { data: { level: 'info', greeting: `hello from ${name}` } } : {}),
      } as KubeObject);
    }
  return objects;
}

function podTemplate(name: string) {
  return {
    metadata: { labels: { app: name } },
    spec: {
      containers: [
        { name, image: `registry.example.org/${name}:1.0.${name.length}`, ports: [{ containerPort: 8080 }] },
      ],
    },
  };
}

/** The live object: what was applied plus what the API server and the controllers add. */
function live(object: KubeObject, drifted: boolean, ready = true): KubeObject {
  const copy = structuredClone(object) as { -readonly [K in keyof KubeObject]: KubeObject[K] } & {
    spec?: Record<string, unknown>;
  };
  copy.metadata = {
    ...copy.metadata,
    uid: `uid-${object.metadata.name}-${object.kind}`,
    resourceVersion: '12345',
    generation: 1,
    creationTimestamp: '2026-05-01T00:00:00Z',
    managedFields: [{ manager: 'clm', operation: 'Apply', apiVersion: object.apiVersion }],
  } as KubeObject['metadata'];
  if (object.kind === 'Deployment') {
    if (drifted) copy.spec = { ...copy.spec, replicas: 5 };
    const replicas = Number(copy.spec?.replicas ?? 1);
    const up = ready ? replicas : 0;
    (copy as Record<string, unknown>).status = {
      observedGeneration: 1,
      replicas,
      updatedReplicas: up,
      readyReplicas: up,
      availableReplicas: up,
    };
  }
  return copy;
}

async function driftHour(rendered: KubeObject[]) {
  const world = countingDriftPorts(rendered);
  const clusters = Array.from({ length: CLUSTERS }, (_, i) => readyCluster(i, {}));
  const cpuPerPass: number[] = [];
  let checked = 0;
  let drifted = 0;
  for (let pass = 0; pass < PASSES; pass++) {
    world.now = START + (pass + 1) * PERIOD_MS;
    const start = process.cpuUsage();
    const { summary } = await runDriftPass(world.ports, clusters, { trigger: 'schedule', periodMs: PERIOD_MS });
    const used = process.cpuUsage(start);
    cpuPerPass.push((used.user + used.system) / 1000);
    checked += summary.checked;
    drifted += summary.drifted.length;
  }
  const { lists, dryRuns, problems } = world;
  return { cpuPerPass, lists, dryRuns, checked, drifted, problems };
}

/** The run's two artefacts as stored. */
function artefactBodies(rendered: KubeObject[]): Map<string, string> {
  const resources: ResourcesArtifact = {
    poolStacks: [],
    cfManifestStacks: [],
    manifests: [{ source: 'main', component: 'apps', file: 'all.yaml', objects: rendered }],
    deletions: { preApply: [], postApply: [] },
    cfDeletions: { preApply: [], postApply: [] },
    filesKeys: [],
  };
  const main = {
    configItems: { manifest_drift: 'report' },
    mainStack: { name: 'main', kind: 'cluster', template: '{}', tags: {} },
    configFilesKey: 'files',
  };
  return new Map([
    ['main', JSON.stringify(main)],
    ['resources', JSON.stringify(resources)],
  ]);
}

/** The drift pass's ports over 1,000 clusters: every 50th with one Deployment edited; every call counted. */
function countingDriftPorts(rendered: KubeObject[]) {
  const bodies = artefactBodies(rendered);
  const clean = new Map<string, KubeObject[]>();
  const edited = new Map<string, KubeObject[]>();
  for (const [, kind] of KINDS) {
    const ofKind = rendered.filter((o) => o.kind === kind);
    clean.set(
      kind,
      ofKind.map((o) => live(o, false)),
    );
    edited.set(
      kind,
      ofKind.map((o, i) => live(o, i === 0 && kind === 'Deployment')),
    );
  }
  const world = { now: START, lists: 0, dryRuns: 0, problems: 0, ports: undefined as unknown as DriftPorts };
  const kubeOf = (cluster: Cluster): KubeCluster => {
    const drifted = Number(cluster.localId.split('-')[1]) % 50 === 0;
    return {
      list: async (kind: string) => {
        world.lists++;
        return (drifted ? edited : clean).get(kind) ?? [];
      },
      apply: async (objects: readonly KubeObject[]) => {
        world.dryRuns++;
        return objects.map((o) => ({
          ref: { kind: o.kind, name: o.metadata.name, namespace: o.metadata.namespace },
          action: 'configured',
          changes: [{ path: 'spec.replicas', manager: 'kubectl-edit' }],
        }));
      },
    } as unknown as KubeCluster;
  };
  world.ports = {
    clock: { now: () => world.now },
    progress: {
      getLease: async () => undefined,
      getRun: async () => ({ artifacts: { main: 'main', resources: 'resources' } }),
      getControls: async () => ({}),
      recordProblem: async () => {
        world.problems++;
      },
    },
    registry: { persistsStatus: false },
    artifacts: { get: async (key: string) => bodies.get(key) },
    forCluster: (cluster: Cluster) => ({ kube: kubeOf(cluster) }),
  } as unknown as DriftPorts;
  return world;
}

async function oneHealthCheck(rendered: KubeObject[]) {
  const deployments = rendered.filter((o) => o.kind === 'Deployment');
  let now = START;
  let lists = 0;
  let looks = 0;
  const kube = {
    list: async (kind: string) => {
      lists++;
      if (kind === 'Deployment') looks++;
      const ready = now - START >= 60_000;
      return rendered.filter((o) => o.kind === kind).map((o) => live(o, false, ready));
    },
  } as unknown as KubeCluster;
  const resources = {
    manifests: [{ source: 'main', component: 'apps', file: 'all.yaml', objects: rendered }],
  } as unknown as ResourcesArtifact;
  const start = process.cpuUsage();
  await awaitHealth(
    kube,
    { clusterId: 'aws:123456789012:eu-central-1:kube-0', items: {}, resources, phases: {}, now },
    {
      markSince: async () => undefined,
      sleep: async (ms) => {
        now += ms;
      },
      now: () => now,
      outOfTime: () => false,
    },
  );
  const used = process.cpuUsage(start);
  return { cpu: (used.user + used.system) / 1000, lists, looks, checked: deployments.length };
}
