import type { PoolInstance } from '../../ports/node-pool-backend';
import type { RollPolicy } from '../rollout/roll-policy';
import type { StackPlan } from './plan-document';
import { rollEstimate } from './roll-estimate';
import type { PoolRollEstimate } from './roll-estimate';

/** Resource types whose change gives the pool's instances a new launch configuration. */
const LAUNCH_TYPES = new Set(['AWS::EC2::LaunchTemplate', 'AWS::AutoScaling::LaunchConfiguration']);

export interface PoolForPlan {
  readonly name: string;
  readonly stackName: string;
  readonly instances: readonly PoolInstance[];
  readonly policy: Pick<RollPolicy, 'maxSurge' | 'maxUnavailable' | 'canary' | 'canarySoakMs'>;
}

/**
 * Which pools an update would roll and how many nodes: every live node of a pool whose stack changes its
 * launch template (or launch configuration), otherwise the nodes already outdated. `rolls` false
 * (`--apply-only`, a cluster still being created): none.
 */
export function poolRolls(
  pools: readonly PoolForPlan[],
  stacks: readonly StackPlan[],
  rolls: boolean,
): PoolRollEstimate[] {
  const byName = new Map(stacks.map((s) => [s.name, s]));
  return pools.map((pool) => {
    const live = pool.instances.filter((i) => !i.lifecycleState.startsWith('Terminat'));
    const stack = byName.get(pool.stackName);
    const relaunch = stack?.changes.some((c) => LAUNCH_TYPES.has(c.resourceType)) ?? false;
    const nodes = !rolls ? 0 : relaunch ? live.length : live.filter((i) => i.outdated).length;
    return rollEstimate(pool.name, nodes, pool.policy);
  });
}
