import { mainStackName, nodePoolStackName } from '../../core/cloudformation/stack-names';
import { resourcesOf, podRequests } from '../../core/kube/pod-resources';
import { clusterRef } from '../../core/model/cluster-ref';
import { isKarpenterPool, type Cluster } from '../../core/model/cluster';
import type { ClusterSnapshot, SnapshotNode, SnapshotPod, SnapshotVolume } from '../../core/rehearsal/cluster-snapshot';
import { learnedTimings, stackUpdateDurations } from '../../core/rehearsal/learned-timings';
import { hardConstraints, schedulingShape } from '../../core/rehearsal/workload-shapes';
import type { KubeObject } from '../../ports/kube-cluster';
import type { ClusterPorts, Ports } from '../../ports/ports';
import { isRecord } from '../../core/config/plain-data';
import { pdbReleases } from '../../core/rehearsal/pdb-releases';
import type { RunRecord } from '../../core/model/run';
import type { ProgressStore } from '../../ports/progress-store';
import { readQuotas } from './read-quotas';

/**
 * What a snapshot reads: Kubernetes lists, the pools' groups, the stacks' events and, where given, CLM's records of
 * the cluster's last two runs (how long its PDBs blocked). Never a write.
 */
export type SnapshotPorts = Pick<Ports, 'clock'> & {
  readonly cluster: Pick<ClusterPorts, 'kube' | 'pools' | 'stacks' | 'quotas'>;
  readonly progress?: Pick<ProgressStore, 'getRuns'>;
};

/** The kinds a snapshot lists, in order. Secrets and ConfigMaps are not among them, and never will be. */
export const SNAPSHOT_KINDS = [
  'Node',
  'Pod',
  'PodDisruptionBudget',
  'PersistentVolumeClaim',
  'PersistentVolume',
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
] as const;

const ZONE_KEYS = [
  'topology.kubernetes.io/zone',
  'topology.ebs.csi.aws.com/zone',
  'failure-domain.beta.kubernetes.io/zone',
];

type Json = Record<string, unknown>;

/** Read the live cluster once for a rehearsal (reads only; a kind the API server does not serve is empty). */
export async function takeSnapshot(cluster: Cluster, ports: SnapshotPorts): Promise<ClusterSnapshot> {
  const { kube, pools, stacks } = ports.cluster;
  const now = ports.clock.now();
  const lists = new Map<string, KubeObject[]>();
  for (const kind of SNAPSHOT_KINDS) lists.set(kind, await kube.list(kind).catch(() => []));
  const pdbs = await kube.listPdbs();
  const kinds: string[] = [...SNAPSHOT_KINDS];
  const karpenterNodePools = (await kube.servesKind('NodePool').catch(() => false))
    ? (kinds.push('NodePool'), await kube.list('NodePool').catch(() => []))
    : [];
  const pdbObjects = lists.get('PodDisruptionBudget') ?? [];
  const poolStates = [];
  for (const pool of cluster.nodePools.filter((p) => !isKarpenterPool(p))) {
    const state = await pools.getPool(clusterRef(cluster), pool.name);
    if (state) poolStates.push({ name: pool.name, ...state });
  }
  const stackNames = [mainStackName(cluster), ...poolStates.map((p) => nodePoolStackName(cluster, p.name))];
  const events = await Promise.all(stackNames.map((n) => stacks.events(n).catch(() => [])));
  const updates = events.flatMap((e) => stackUpdateDurations(e));
  // Stacks never updated yet: half their creates (an update changes part of what a create made).
  const stackUpdates = updates.length
    ? updates
    : events.flatMap((e) => stackUpdateDurations(e, 'CREATE')).map((seconds) => seconds / 2);
  const nodes = (lists.get('Node') ?? []).map((n) => snapshotNode(n, now));
  const pods = (lists.get('Pod') ?? []).map(snapshotPod);
  const launched = new Map(poolStates.flatMap((p) => p.instances.map((i) => [i.instanceId, i.launchedAt])));
  const { boots, readies } = bootTimes(lists.get('Node') ?? [], launched);
  return {
    clusterId: cluster.id,
    takenAt: now,
    kinds,
    nodes,
    pods,
    pdbs,
    volumes: volumes(lists.get('PersistentVolumeClaim') ?? [], lists.get('PersistentVolume') ?? []),
    workloads: [...workloadsOf(lists), ...pdbObjects.map(schedulingShape)],
    pools: poolStates.map((p) => ({
      name: p.name,
      desired: p.desired,
      min: p.min,
      max: p.max,
      instances: p.instances,
    })),
    karpenterNodePools,
    timings: learnedTimings({ stackUpdates, boots, readies, pods }),
    pdbReleases: pdbReleases(pdbs, await lastRuns(cluster, ports.progress)),
    quotas: await readQuotas(cluster, nodes, poolStates, ports.cluster.quotas),
  };
}

/** The records of the runs that brought the cluster to its current and to its previous version. */
async function lastRuns(cluster: Cluster, progress: SnapshotPorts['progress']): Promise<readonly RunRecord[]> {
  const versions = [...new Set([cluster.status.currentVersion, cluster.status.lastVersion].filter(Boolean))];
  if (!progress || !versions.length) return [];
  return progress.getRuns(versions.map((targetVersion) => ({ clusterId: cluster.id, targetVersion })));
}

function workloadsOf(lists: ReadonlyMap<string, KubeObject[]>): KubeObject[] {
  const controllers = ['Deployment', 'StatefulSet', 'DaemonSet'].flatMap((k) => lists.get(k) ?? []);
  // ReplicaSets and pods no controller owns (a ReplicaSet of a Deployment comes back from its Deployment).
  const unowned = (o: KubeObject) => !(o.metadata.ownerReferences ?? []).length;
  const replicaSets = (lists.get('ReplicaSet') ?? []).filter(unowned);
  const pods = (lists.get('Pod') ?? [])
    .filter(unowned)
    .filter((p) => !isRecord(p.status) || p.status.phase !== 'Succeeded');
  return [...controllers, ...replicaSets, ...pods].map(schedulingShape);
}

function snapshotNode(node: KubeObject, now: number): SnapshotNode {
  const labels = node.metadata.labels ?? {};
  const spec = (node.spec ?? {}) as Json;
  const status = (node.status ?? {}) as Json;
  const ready = readyCondition(status);
  return {
    name: node.metadata.name,
    ...optional('pool', labels['node.kubernetes.io/node-pool'] ?? labels['karpenter.sh/nodepool']),
    ...optional('zone', labels['topology.kubernetes.io/zone']),
    ...optional('instanceType', labels['node.kubernetes.io/instance-type']),
    ageSeconds: Math.max(0, Math.round((now - Date.parse(node.metadata.creationTimestamp ?? '')) / 1000)) || 0,
    ...(status.allocatable ? { allocatable: resourcesOf(status.allocatable) } : {}),
    taints: Array.isArray(spec.taints) ? (spec.taints as SnapshotNode['taints']) : [],
    labels,
    unschedulable: spec.unschedulable === true,
    ready: ready?.status === 'True',
  };
}

function readyCondition(status: Json): Json | undefined {
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isRecord) : [];
  return conditions.find((c) => c.type === 'Ready');
}

function snapshotPod(pod: KubeObject): SnapshotPod {
  const spec = (pod.spec ?? {}) as Json;
  const status = (pod.status ?? {}) as Json;
  const owner = pod.metadata.ownerReferences?.[0];
  const volumes = Array.isArray(spec.volumes) ? spec.volumes.filter(isRecord) : [];
  return {
    namespace: pod.metadata.namespace ?? 'default',
    name: pod.metadata.name,
    ...(owner ? { owner: { kind: owner.kind, name: owner.name } } : {}),
    ...optional('nodeName', typeof spec.nodeName === 'string' ? spec.nodeName : undefined),
    phase: typeof status.phase === 'string' ? status.phase : 'Unknown',
    requests: podRequests(spec),
    ...(typeof spec.priority === 'number' ? { priority: spec.priority } : {}),
    terminationGracePeriodSeconds:
      typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30,
    claims: volumes
      .map((v) => (isRecord(v.persistentVolumeClaim) ? String(v.persistentVolumeClaim.claimName) : ''))
      .filter(Boolean),
    constraints: hardConstraints(spec),
  };
}

/** Boot (instance launched → Node created) and Ready (Node created → Ready) of the nodes whose instance is known. */
function bootTimes(nodes: readonly KubeObject[], launched: ReadonlyMap<string, number | undefined>) {
  const boots: number[] = [];
  const readies: number[] = [];
  for (const node of nodes) {
    const created = Date.parse(node.metadata.creationTimestamp ?? '');
    const instanceId =
      String(((node.spec ?? {}) as Json).providerID ?? '')
        .split('/')
        .pop() ?? '';
    const launchedAt = launched.get(instanceId);
    if (launchedAt !== undefined && Number.isFinite(created)) boots.push((created - launchedAt) / 1000);
    const ready = readyCondition((node.status ?? {}) as Json);
    const transition = Date.parse(String(ready?.lastTransitionTime ?? ''));
    if (ready?.status === 'True' && Number.isFinite(transition) && Number.isFinite(created))
      readies.push((transition - created) / 1000);
  }
  return { boots, readies };
}

function zoneOf(pv: KubeObject): string | undefined {
  const labels = pv.metadata.labels ?? {};
  for (const key of ZONE_KEYS) if (labels[key]) return labels[key];
  const terms = (((pv.spec as Json | undefined)?.nodeAffinity as Json | undefined)?.required as Json | undefined)
    ?.nodeSelectorTerms;
  for (const term of Array.isArray(terms) ? terms.filter(isRecord) : [])
    for (const e of Array.isArray(term.matchExpressions) ? term.matchExpressions.filter(isRecord) : [])
      if (ZONE_KEYS.includes(String(e.key)) && Array.isArray(e.values) && e.values.length) return String(e.values[0]);
  return undefined;
}

function volumes(claims: readonly KubeObject[], pvs: readonly KubeObject[]): SnapshotVolume[] {
  const zones = new Map(pvs.map((pv) => [pv.metadata.name, zoneOf(pv)]));
  return claims.map((c) => {
    const volume = (c.spec as Json | undefined)?.volumeName;
    const zone = typeof volume === 'string' ? zones.get(volume) : undefined;
    return {
      namespace: c.metadata.namespace ?? 'default',
      claim: c.metadata.name,
      ...optional('volume', typeof volume === 'string' ? volume : undefined),
      ...optional('zone', zone),
    };
  });
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value ? { [key]: value } : {}) as { [P in K]?: string };
}
