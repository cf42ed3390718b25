import { vcpuQuotaOf, vcpusByQuota } from '../../core/capacity/vcpu-quotas';
import type { Cluster } from '../../core/model/cluster';
import type { SnapshotNode, SnapshotQuota } from '../../core/rehearsal/cluster-snapshot';
import type { AccountQuotas } from '../../ports/account-quotas';

/**
 * The account's On-Demand vCPU quotas a rehearsal compares the surge with: those of the instance types the cluster's
 * nodes run and its pools are configured with; each limit (or why it is unknown), the vCPUs the account holds of it,
 * and the cluster's share. Reads only; a failed read of the use leaves it unknown.
 */
export async function readQuotas(
  cluster: Cluster,
  nodes: readonly SnapshotNode[],
  quotas: AccountQuotas,
): Promise<SnapshotQuota[]> {
  const types = [
    ...cluster.nodePools.flatMap((p) => p.instanceTypes),
    ...nodes.flatMap((n) => (n.instanceType ? [n.instanceType] : [])),
  ];
  const wanted = [...new Map(types.flatMap((t) => vcpuQuotaOf(t) ?? []).map((q) => [q.code, q])).values()];
  if (!wanted.length) return [];
  const inUse = await quotas.vcpusInUse().catch(() => undefined);
  const own = vcpusByQuota(nodes.flatMap((n) => (n.instanceType ? [{ instanceType: n.instanceType }] : [])));
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
