import { NODEPOOL_LABEL } from '../../core/karpenter/karpenter-objects';
import type { ClusterRef, KarpenterInstance, NodePoolBackend } from '../../ports/node-pool-backend';
import { RolloutError } from '../../shared/errors';
import type { SyncPort } from '../ports/instrument';
import { hashOf } from '../hash';
import type { SimContext } from '../sim-context';
import type { AccountState, InstanceRecord } from '../world-state';
import { allocatePrivateIp } from './account';
import { beginTermination, isActive, startInstance } from './autoscaling';
import { VcpuLimitExceeded, refuseOverQuota } from './vcpu-quota';

/**
 * EC2 instances the simulated Karpenter controller launches (kube/karpenter.ts): no Auto Scaling group, tagged with
 * the cluster's ownership tag, `karpenter.sh/nodepool` and the NodeClaim's name, booting and shutting down on the
 * virtual clock like any instance.
 */

export const NODECLAIM_TAG = 'karpenter.sh/nodeclaim';

export interface KarpenterLaunch {
  readonly clusterId: string;
  readonly clusterName: string;
  readonly pool: string;
  readonly nodeClaim: string;
  readonly az: string;
  readonly instanceType: string;
  readonly imageId?: string;
  /** The EC2NodeClass's `instanceProfile`, or its `role` (Karpenter then makes the instance profile). */
  readonly instanceProfile?: string;
  readonly role?: string;
  /** The files bundles the EC2NodeClass's `userData` names. */
  readonly bundles?: readonly { readonly bucket: string; readonly key: string }[];
}

/** CreateFleet of one On-Demand instance; throws VcpuLimitExceeded when the account's vCPU quota has no room for it. */
export function launchKarpenterInstance(
  ctx: SimContext,
  account: AccountState,
  launch: KarpenterLaunch,
): InstanceRecord {
  const refused = refuseOverQuota(ctx, account, launch.instanceType, false);
  if (refused) throw new VcpuLimitExceeded(refused);
  const instance: InstanceRecord = {
    id: `i-${hashOf([launch.clusterId, launch.nodeClaim, ctx.rng.hex(17)], 17)}`,
    asg: '',
    cluster: launch.clusterId,
    az: launch.az,
    state: 'Pending',
    instanceType: launch.instanceType,
    spot: false,
    privateIp: allocatePrivateIp(account, launch.az),
    launchedAt: ctx.now,
    seq: ctx.nextSeq(),
    tags: {
      [`kubernetes.io/cluster/${launch.clusterName}`]: 'owned',
      [NODEPOOL_LABEL]: launch.pool,
      [NODECLAIM_TAG]: launch.nodeClaim,
      ...(launch.imageId ? { 'sim:image-id': launch.imageId } : {}),
    },
    ...(launch.instanceProfile ? { instanceProfile: launch.instanceProfile } : {}),
    ...(launch.role ? { role: launch.role } : {}),
    ...(launch.bundles?.length ? { bundles: launch.bundles } : {}),
  };
  return startInstance(ctx, account, instance);
}

/** Pending or running Karpenter instances of the cluster (optionally of one pool), oldest first. */
export function karpenterInstancesOf(account: AccountState, clusterName: string, pool?: string): KarpenterInstance[] {
  return Object.values(account.instances)
    .filter(
      (i) =>
        isActive(i) &&
        i.tags[`kubernetes.io/cluster/${clusterName}`] === 'owned' &&
        i.tags[NODEPOOL_LABEL] !== undefined &&
        (pool === undefined || i.tags[NODEPOOL_LABEL] === pool),
    )
    .sort((a, b) => a.seq - b.seq)
    .map((i) => ({
      instanceId: i.id,
      pool: i.tags[NODEPOOL_LABEL]!,
      state: i.state === 'Pending' ? 'pending' : 'running',
    }));
}

/** EC2 TerminateInstances of one Karpenter instance; a second call while it shuts down is counted as a bug. */
export function terminateKarpenterInstance(ctx: SimContext, account: AccountState, instance: InstanceRecord): void {
  if (instance.state === 'Terminated') return;
  if (!isActive(instance)) {
    ctx.terminatedTwice(`instance ${instance.id} (Karpenter pool ${instance.tags[NODEPOOL_LABEL]}) terminated again`);
    return;
  }
  beginTermination(ctx, account, instance);
}

/** The NodePoolBackend's EC2 side of Karpenter pools over the simulated accounts. */
export function simKarpenterEc2(
  ctx: SimContext,
  accountOf: (cluster: ClusterRef) => AccountState,
): SyncPort<Pick<NodePoolBackend, 'karpenterInstances' | 'terminateInstances'>> {
  return {
    karpenterInstances(cluster, pool) {
      return karpenterInstancesOf(accountOf(cluster), cluster.name, pool);
    },
    terminateInstances(cluster, instanceIds) {
      const account = accountOf(cluster);
      for (const id of instanceIds) {
        const instance = account.instances[id];
        if (!instance) continue;
        if (instance.tags[`kubernetes.io/cluster/${cluster.name}`] !== 'owned' || !instance.tags[NODEPOOL_LABEL])
          throw new RolloutError(
            `refusing to terminate ${id}: not tagged kubernetes.io/cluster/${cluster.name}=owned with a ${NODEPOOL_LABEL} tag`,
          );
        terminateKarpenterInstance(ctx, account, instance);
      }
    },
  };
}
