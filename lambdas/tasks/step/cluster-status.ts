import type { Cluster, ClusterStatus, ConfigItems, LifecycleStatus, Problem } from '../../core/model/cluster';
import { EMPTY_STATUS } from '../../core/model/cluster';
import { appendProblem } from '../../core/status/problems';
import { peersOf } from '../../core/eks/oidc-trust';
import type { Ports } from '../../ports/ports';
import type { StoredStatus } from '../../ports/progress-store';
import { NotFoundError } from '../../shared/errors';
import { withNodeCheckItems, type NodeCheckItems } from '../../core/node-renewal/node-check-items';

/**
 * The cluster from the registry, with status overlaid from the progress store when the registry cannot
 * store status (the YAML file: CLM loses it there; we keep it), and its account's clusters (CLM's AccountClusters).
 */
export async function loadCluster(ports: Pick<Ports, 'registry' | 'progress'>, clusterId: string): Promise<Cluster> {
  const clusters = await listWithStoredStatus(ports);
  const cluster = clusters.find((c) => c.id === clusterId);
  if (!cluster) throw new NotFoundError(`Cluster ${clusterId} is not in the registry ${ports.registry.description}`);
  return { ...cluster, accountClusters: peersOf(cluster, clusters) };
}

export async function withStoredStatus(
  ports: Pick<Ports, 'registry' | 'progress'>,
  cluster: Cluster,
): Promise<Cluster> {
  if (ports.registry.persistsStatus) return cluster;
  return overlayStatus(cluster, await ports.progress.getStatus(cluster.id));
}

/** Every cluster of the registry, read once, with stored status overlaid (batched) when the registry keeps none. */
export async function listWithStoredStatus(ports: Pick<Ports, 'registry' | 'progress'>): Promise<Cluster[]> {
  const clusters = await ports.registry.listClusters();
  if (ports.registry.persistsStatus) return clusters;
  const stored = await ports.progress.getStatuses(clusters.map((c) => c.id));
  return clusters.map((cluster) => overlayStatus(cluster, stored.get(cluster.id)));
}

/** The cluster with the stored status (and lifecycle) in place of the registry's, and the written config items over its own. */
export function overlayStatus(cluster: Cluster, stored: StoredStatus | undefined): Cluster {
  if (!stored) return cluster;
  const { updatedAt: _updatedAt, lifecycleStatus, configItems, nodeChecks: _nodeChecks, ...status } = stored;
  return {
    ...cluster,
    status,
    lifecycleStatus: lifecycleStatus ?? cluster.lifecycleStatus,
    ...(configItems ? { configItems: { ...cluster.configItems, ...configItems } } : {}),
  };
}

/**
 * Write config items back (CLM's `UpdateConfigItems`: the EKS creation hook's): through the registry's config-item
 * write when it stores them (HTTP: one PUT per item; DynamoDB), else into the stored status, which `overlayStatus`
 * lays over the file's items for every later read (the file registry also keeps them for this process).
 */
export async function writeConfigItems(
  ports: Pick<Ports, 'registry' | 'progress' | 'clock'>,
  clusterId: string,
  items: ConfigItems,
): Promise<void> {
  if (Object.keys(items).length === 0) return;
  if (!ports.registry.persistsStatus) {
    const stored = await ports.progress.getStatus(clusterId);
    await ports.progress.putStatus(clusterId, {
      ...(stored ?? EMPTY_STATUS),
      configItems: { ...stored?.configItems, ...items },
      updatedAt: ports.clock.now(),
    });
  }
  await ports.registry.updateConfigItems(clusterId, items);
}

/**
 * Write status to the registry (when it can hold it) and always to the progress store. Without `lifecycleStatus`
 * the lifecycle the store holds is kept (a status write never drops it: `overlayStatus` reads it back).
 */
export async function writeStatus(
  ports: Pick<Ports, 'registry' | 'progress' | 'clock'>,
  cluster: Pick<Cluster, 'id'>,
  status: ClusterStatus,
  lifecycleStatus?: LifecycleStatus,
): Promise<void> {
  const stored = await ports.progress.getStatus(cluster.id);
  const lifecycle = lifecycleStatus ?? stored?.lifecycleStatus;
  await ports.progress.putStatus(cluster.id, {
    ...status,
    ...(lifecycle ? { lifecycleStatus: lifecycle } : {}),
    ...kept(stored),
    updatedAt: ports.clock.now(),
  });
  await ports.registry.updateStatus(cluster.id, { ...(lifecycleStatus ? { lifecycleStatus } : {}), status });
}

/**
 * Append a problem to the cluster's status: in the registry when it holds status (the progress store mirrors
 * it), else in the progress store. A registry that refuses the write does not fail the caller.
 */
export async function recordClusterProblem(
  ports: Pick<Ports, 'registry' | 'progress'>,
  clusterId: string,
  cluster: Cluster | undefined,
  problem: Problem,
  now: number,
): Promise<void> {
  if (cluster && ports.registry.persistsStatus) {
    const problems = appendProblem(cluster.status.problems, problem);
    const stored = await ports.progress.getStatus(cluster.id);
    await ports.progress.putStatus(cluster.id, {
      ...cluster.status,
      problems,
      ...(stored?.lifecycleStatus ? { lifecycleStatus: stored.lifecycleStatus } : {}),
      ...kept(stored),
      updatedAt: now,
    });
    await ports.registry.updateStatus(cluster.id, { status: { ...cluster.status, problems } }).catch(() => undefined);
  } else {
    await ports.progress.recordProblem(clusterId, problem, now);
  }
}

/** What a status write keeps of the stored status besides the status itself: written config items, node-check items. */
function kept(stored: StoredStatus | undefined): Pick<StoredStatus, 'configItems' | 'nodeChecks'> {
  return {
    ...(stored?.configItems ? { configItems: stored.configItems } : {}),
    ...(stored?.nodeChecks ? { nodeChecks: stored.nodeChecks } : {}),
  };
}

/**
 * Record the node-check items a render found effective (RenderConfig), unless the stored status holds them already.
 * A cluster without a stored status gets one from the status it was read with, so nothing else changes.
 */
export async function recordNodeCheckItems(
  ports: Pick<Ports, 'progress' | 'clock'>,
  cluster: Pick<Cluster, 'id' | 'status'>,
  record: NodeCheckItems,
): Promise<void> {
  const stored = await ports.progress.getStatus(cluster.id);
  if (stored?.nodeChecks && sameRecord(stored.nodeChecks, record)) return;
  await ports.progress.putStatus(cluster.id, {
    ...(stored ?? cluster.status),
    nodeChecks: record,
    updatedAt: ports.clock.now(),
  });
}

/** Each cluster with the node-check items of the version it runs laid under its registry items (one batched read). */
export async function withRecordedNodeChecks(
  ports: Pick<Ports, 'progress'>,
  clusters: readonly Cluster[],
): Promise<Cluster[]> {
  const stored = await ports.progress.getStatuses(clusters.map((c) => c.id));
  return clusters.map((cluster) => withNodeCheckItems(cluster, stored.get(cluster.id)?.nodeChecks));
}

function sameRecord(a: NodeCheckItems, b: NodeCheckItems): boolean {
  const keys = (r: NodeCheckItems) => Object.keys(r.items).sort().join(',');
  return a.version === b.version && keys(a) === keys(b) && Object.keys(a.items).every((k) => a.items[k] === b.items[k]);
}
