import { awsAccountId } from '../../core/model/cluster';
import type { ClusterRef, NodePoolBackend, PoolInstance } from '../../ports/node-pool-backend';
import { NotFoundError } from '../../shared/errors';
import { ensureAccount } from '../aws/account';
import { asgInstances, isOutdated, poolAsgs, scalePool, terminateInstance } from '../aws/autoscaling';
import { simKarpenterEc2 } from '../aws/karpenter-instances';
import type { SimContext } from '../sim-context';
import { instrument } from './instrument';

const AUTOSCALER_TAG = 'k8s.io/cluster-autoscaler/enabled';

/** NodePoolBackend over the simulated Auto Scaling groups; pools are found by tags as CLM does. */
export function simNodePoolBackend(ctx: SimContext, clusterId?: string): NodePoolBackend {
  const accountOf = (cluster: ClusterRef) =>
    ensureAccount(ctx, awsAccountId(cluster.infrastructureAccount), cluster.region);
  return instrument<NodePoolBackend>(ctx, 'pools', clusterId, {
    getPool(cluster, poolName) {
      const account = accountOf(cluster);
      const asgs = poolAsgs(account, cluster.name, poolName);
      if (asgs.length === 0) return undefined;
      const instances: PoolInstance[] = asgs.flatMap((asg) =>
        asgInstances(account, asg.name).map((instance) => ({
          instanceId: instance.id,
          availabilityZone: instance.az,
          lifecycleState: instance.state,
          healthy: instance.state !== 'Terminating',
          outdated: isOutdated(account, asg, instance),
          ...(instance.launchTemplateVersion ? { launchTemplateVersion: instance.launchTemplateVersion } : {}),
          instanceType: instance.instanceType,
          asgName: asg.name,
          launchedAt: instance.launchedAt,
        })),
      );
      const sum = (pick: (asg: (typeof asgs)[number]) => number): number =>
        asgs.reduce((total, asg) => total + pick(asg), 0);
      return {
        poolName,
        desired: sum((asg) => asg.desired),
        min: sum((asg) => asg.min),
        max: sum((asg) => asg.max),
        groups: asgs.map((asg) => ({ name: asg.name, desired: asg.desired, min: asg.min, max: asg.max })),
        instances,
      };
    },
    scale(cluster, poolName, desired) {
      const account = accountOf(cluster);
      const asgs = poolAsgs(account, cluster.name, poolName);
      if (asgs.length === 0)
        throw new NotFoundError(`node pool ${poolName} has no Auto Scaling group`, {
          location: { clusterId: cluster.id },
        });
      scalePool(ctx, account, asgs, desired);
    },
    terminate(cluster, instanceId, decrementDesired) {
      const account = accountOf(cluster);
      const instance = account.instances[instanceId];
      if (!instance)
        throw new NotFoundError(`instance ${instanceId} does not exist in ${account.key}`, {
          location: { clusterId: cluster.id },
        });
      terminateInstance(ctx, account, instance, decrementDesired);
    },
    ...simKarpenterEc2(ctx, accountOf),
    markForDecommission(cluster, poolName) {
      const account = accountOf(cluster);
      for (const asg of poolAsgs(account, cluster.name, poolName)) {
        asg.min = 0;
        delete asg.tags[AUTOSCALER_TAG];
      }
    },
  });
}
