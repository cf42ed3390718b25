import { vcpuQuotaOf, vcpusByQuota } from '../../core/capacity/vcpu-quotas';
import type { Cluster } from '../../core/model/cluster';
import type { SnapshotNode, SnapshotPool, SnapshotQuota } from '../../core/rehearsal/cluster-snapshot';
import type { AccountQuotas } from '../../ports/account-quotas';

/**
 * The account's On-Demand vCPU quotas a rehearsal compares the surge with: those of the instance types the cluster's
 * nodes run and its pools are configured with; each limit (or why it is unknown), the vCPUs the account holds of it,
 * and the cluster's share. Reads only; a failed read of the use leaves it unknown.
 */
export async function readQuotas(
  cluster: Cluster,
  nodes: readonly SnapshotNode[],
  pools: readonly Pick<SnapshotPool, 'instances'>[],
  quotas: AccountQuotas,
): Promise<SnapshotQuota[]> {
  const types = [
    ...cluster.nodePools.flatMap((p) => p.instanceTypes),
    ...nodes.flatMap((n) => (n.instanceType ? [n.instanceType] : [])),
  ];
  const wanted = [...new Map(types.flatMap((t) => vcpuQuotaOf(t) ?? []).map((q) => [q.code, q])).values()];
  if (!wanted.length) return [];
  const inUse = await quotas.vcpusInUse().catch(() => undefined);
  // The cluster's share: the instances of its Auto Scaling pools (what the twin runs again), else its nodes' types.
  const instances = pools
    .flatMap((p) => p.instances)
    .filter((i) => i.instanceType && !/^Terminat/.test(i.lifecycleState));
  const own = vcpusByQuota(
    instances.length
      ? instances.map((i) => ({ instanceType: i.instanceType! }))
      : nodes.flatMap((n) => (n.instanceType ? [{ instanceType: n.instanceType }] : [])),
  );
  const read: SnapshotQuota[] = [];
  for (const quota of wanted) {
    const limit = await quotas.vcpuLimit(quota.code);
    read.push({
      code: quota.code,
      name: quota.name,
      ...('limit' in limit ? { limit: limit.limit } : { unknown: limit.unknown }),
      ...(inUse ? { inUse: inUse[quota.code] ?? 0 } : {}),
      cluster: own[quota.code] ?? 0,
    });
  }
  return read;
}
