import { awsAccountId } from '../../core/model/cluster';
import type { ClusterRef, NodePoolBackend, PoolGroup, PoolInstance } from '../../ports/node-pool-backend';
import { NotFoundError } from '../../shared/errors';
import { ensureAccount } from '../aws/account';
import { asgInstances, isActive, isOutdated, poolAsgs, scalePool, terminateInstance } from '../aws/autoscaling';
import { launchFailureOf } from '../aws/scaling-activities';
import { simKarpenterEc2 } from '../aws/karpenter-instances';
import type { SimContext } from '../sim-context';
import { instrument } from './instrument';
import type { AccountState, AsgRecord, InstanceRecord } from '../world-state';
import { poolGroup, simPreRollMarks } from '../aws/pre-roll-marks';

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
      const instances = asgs.flatMap((asg) =>
        asgInstances(account, asg.name).map((i) => poolInstance(account, asg, i)),
      );
      const groups = asgs.map((asg) => {
        const failure = launchFailureOf(asg, asgInstances(account, asg.name).filter(isActive).length);
        return { ...poolGroup(asg), ...(failure ? { launchFailure: failure } : {}) };
      });
      const sum = (pick: (g: PoolGroup) => number): number => groups.reduce((total, g) => total + pick(g), 0);
      return {
        poolName,
        desired: sum((g) => g.desired),
        min: sum((g) => g.min),
        max: sum((g) => g.max),
        groups,
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
    ...simPreRollMarks(accountOf),
    markForDecommission(cluster, poolName) {
      const account = accountOf(cluster);
      for (const asg of poolAsgs(account, cluster.name, poolName)) {
        asg.min = 0;
        delete asg.tags[AUTOSCALER_TAG];
      }
    },
  });
}

function poolInstance(account: AccountState, asg: AsgRecord, instance: InstanceRecord): PoolInstance {
  return {
    instanceId: instance.id,
    availabilityZone: instance.az,
    lifecycleState: instance.state,
    healthy: instance.state !== 'Terminating',
    outdated: isOutdated(account, asg, instance),
    ...(instance.launchTemplateVersion ? { launchTemplateVersion: instance.launchTemplateVersion } : {}),
    instanceType: instance.instanceType,
    asgName: asg.name,
    launchedAt: instance.launchedAt,
  };
}
