/**
 * The EC2 side of Karpenter pools (CLM §6.5 step 2, §7.1 EC2 backend): find the instances Karpenter launched for a
 * cluster (tags `kubernetes.io/cluster/<name>` = owned and the key `karpenter.sh/nodepool`) and terminate them with
 * EC2 TerminateInstances, refusing any instance without both tags. AWS calls: DescribeInstances (filtered by tags,
 * or by the ids to terminate) and one TerminateInstances.
 */
import { TerminateInstancesCommand, paginateDescribeInstances } from './ec2-api';
import type { EC2Client } from '@aws-sdk/client-ec2';
import type { ClusterRef, KarpenterInstance } from '../../ports/node-pool-backend';
import { RolloutError } from '../../shared/errors';
import { toClmError } from './aws-errors';

/** The tag Karpenter puts on the instances it launches (its value: the NodePool). */
const KARPENTER_NODEPOOL_TAG = 'karpenter.sh/nodepool';

function clusterOwnershipTag(cluster: Pick<ClusterRef, 'name'>): string {
  return `kubernetes.io/cluster/${cluster.name}`;
}

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toClmError(error, what);
  }
}

export async function describeKarpenterInstances(
  ec2: EC2Client,
  cluster: ClusterRef,
  pool?: string,
): Promise<KarpenterInstance[]> {
  const found: KarpenterInstance[] = [];
  await call(`EC2 DescribeInstances (Karpenter instances of ${cluster.id})`, async () => {
    for await (const page of paginateDescribeInstances(
      { client: ec2 },
      {
        Filters: [
          { Name: `tag:${clusterOwnershipTag(cluster)}`, Values: ['owned'] },
          pool === undefined
            ? { Name: 'tag-key', Values: [KARPENTER_NODEPOOL_TAG] }
            : { Name: `tag:${KARPENTER_NODEPOOL_TAG}`, Values: [pool] },
          { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] },
        ],
      },
    )) {
      for (const reservation of page.Reservations ?? [])
        for (const instance of reservation.Instances ?? []) {
          if (!instance.InstanceId) continue;
          found.push({
            instanceId: instance.InstanceId,
            pool: instance.Tags?.find((t) => t.Key === KARPENTER_NODEPOOL_TAG)?.Value ?? '',
            state: instance.State?.Name ?? 'unknown',
          });
        }
    }
  });
  return found.sort((a, b) => a.instanceId.localeCompare(b.instanceId));
}

export async function terminateKarpenterInstances(
  ec2: EC2Client,
  cluster: ClusterRef,
  instanceIds: readonly string[],
): Promise<void> {
  const ids = [...new Set(instanceIds.filter(Boolean))];
  if (ids.length === 0) return;
  const live = new Map<string, { owned: boolean; karpenter: boolean }>();
  await call(`EC2 DescribeInstances (${ids.length} to terminate)`, async () => {
    for await (const page of paginateDescribeInstances(
      { client: ec2 },
      {
        Filters: [
          { Name: 'instance-id', Values: ids },
          { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] },
        ],
      },
    )) {
      for (const reservation of page.Reservations ?? [])
        for (const instance of reservation.Instances ?? []) {
          const tags = instance.Tags ?? [];
          live.set(instance.InstanceId ?? '', {
            owned: tags.some((t) => t.Key === clusterOwnershipTag(cluster) && t.Value === 'owned'),
            karpenter: tags.some((t) => t.Key === KARPENTER_NODEPOOL_TAG),
          });
        }
    }
  });
  const refused = [...live].filter(([, tags]) => !tags.owned || !tags.karpenter).map(([id]) => id);
  if (refused.length)
    throw new RolloutError(
      `refusing to terminate ${refused.join(', ')}: not tagged ${clusterOwnershipTag(cluster)}=owned with a ${KARPENTER_NODEPOOL_TAG} tag (cluster ${cluster.id})`,
    );
  // Those already terminated (or gone) are not listed: nothing to do for them.
  const running = ids.filter((id) => live.has(id));
  if (running.length === 0) return;
  await call(`EC2 TerminateInstances ${running.join(', ')}`, () =>
    ec2.send(new TerminateInstancesCommand({ InstanceIds: running })),
  );
}
