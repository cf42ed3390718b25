import type { Cluster, ClusterStatus, LifecycleStatus } from '../../core/model/cluster';
import type { Ports } from '../../ports/ports';
import { NotFoundError } from '../../shared/errors';

/**
 * The cluster from the registry, with status overlaid from the progress store when the registry cannot
 * store status (the YAML file: CLM loses it there; we keep it).
 */
export async function loadCluster(ports: Pick<Ports, 'registry' | 'progress'>, clusterId: string): Promise<Cluster> {
  const clusters = await ports.registry.listClusters();
  const cluster = clusters.find((c) => c.id === clusterId);
  if (!cluster) throw new NotFoundError(`Cluster ${clusterId} is not in the registry ${ports.registry.description}`);
  return withStoredStatus(ports, cluster);
}

export async function withStoredStatus(
  ports: Pick<Ports, 'registry' | 'progress'>,
  cluster: Cluster,
): Promise<Cluster> {
  if (ports.registry.persistsStatus) return cluster;
  const stored = await ports.progress.getStatus(cluster.id);
  if (!stored) return cluster;
  const { updatedAt: _updatedAt, lifecycleStatus, ...status } = stored;
  return { ...cluster, status, lifecycleStatus: lifecycleStatus ?? cluster.lifecycleStatus };
}

/** Write status to the registry (when it can hold it) and always to the progress store. */
export async function writeStatus(
  ports: Pick<Ports, 'registry' | 'progress' | 'clock'>,
  cluster: Pick<Cluster, 'id'>,
  status: ClusterStatus,
  lifecycleStatus?: LifecycleStatus,
): Promise<void> {
  await ports.progress.putStatus(cluster.id, {
    ...status,
    ...(lifecycleStatus ? { lifecycleStatus } : {}),
    updatedAt: ports.clock.now(),
  });
  await ports.registry.updateStatus(cluster.id, { ...(lifecycleStatus ? { lifecycleStatus } : {}), status });
}
