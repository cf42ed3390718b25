import type { NodeProgress, PoolProgress } from '../../../lambdas/core/model/run';
import { isRepairRoll } from '../../../lambdas/core/node-renewal/repair-roll';
import type { PoolNode, PoolSnapshot, RenewalReason } from '../../../lambdas/core/rollout/pool-snapshot';
import { renewalSettings } from '../../../lambdas/core/node-renewal/renewal-settings';
import { repairOutsideWindows } from '../../../lambdas/tasks/roll/renew-pool';

function poolNode(id: string, outdated = false, renewal?: RenewalReason): PoolNode {
  return {
    instanceId: id,
    availabilityZone: 'eu-central-1a',
    outdated,
    lifecycleState: 'InService',
    ready: true,
    ...(renewal ? { renewal } : {}),
  };
}

function snapshot(...nodes: PoolNode[]): PoolSnapshot {
  return { desired: nodes.length, min: 0, max: 10, nodes };
}

function progress(
  nodes: NodeProgress[],
  replaced = nodes.filter((n) => n.state === 'terminated' && !n.surplus).length,
) {
  const record: PoolProgress = {
    status: 'rolling',
    total: 1,
    replaced,
    steps: 3,
    nodes: Object.fromEntries(nodes.map((n) => [n.instanceId, n])),
  };
  return record;
}

const repaired: NodeProgress = { instanceId: 'i-lost', state: 'terminated', renewal: 'repair', terminatedAt: 1 };

describe('isRepairRoll', () => {
  it('holds when every outdated node is outdated for repair', () => {
    expect(isRepairRoll(snapshot(poolNode('i-lost', true, 'repair'), poolNode('i-ok')), undefined)).toBe(true);
  });

  it('holds for the take-back of its own extra node once the repaired node is gone', () => {
    // No outdated node is left: the next step cordons the node the roll added for same-zone pairing.
    const taking = progress([repaired]);
    expect(isRepairRoll(snapshot(poolNode('i-ok'), poolNode('i-extra')), taking)).toBe(true);
    const draining = progress([repaired, { instanceId: 'i-extra', state: 'draining', surplus: true }]);
    expect(isRepairRoll(snapshot(poolNode('i-ok'), poolNode('i-extra')), draining)).toBe(true);
  });

  it('keeps a node taken in for repair that turned Ready again (outdated only by the record)', () => {
    const taken = progress([{ instanceId: 'i-lost', state: 'draining', renewal: 'repair' }]);
    expect(isRepairRoll(snapshot(poolNode('i-lost', true), poolNode('i-ok')), taken)).toBe(true);
  });

  it('does not hold when any node is replaced for another reason, now or earlier in the roll', () => {
    const mixed = snapshot(poolNode('i-lost', true, 'repair'), poolNode('i-old', true, 'age'));
    expect(isRepairRoll(mixed, undefined)).toBe(false);
    const template = snapshot(poolNode('i-lost', true, 'repair'), poolNode('i-new-ami', true));
    expect(isRepairRoll(template, undefined)).toBe(false);
    const aged = progress([repaired, { instanceId: 'i-old', state: 'terminated', renewal: 'age' }]);
    expect(isRepairRoll(snapshot(poolNode('i-ok'), poolNode('i-extra')), aged)).toBe(false);
    const byTemplate = progress([repaired, { instanceId: 'i-x', state: 'terminated' }]);
    expect(isRepairRoll(snapshot(poolNode('i-ok'), poolNode('i-extra')), byTemplate)).toBe(false);
  });

  it('does not hold when the record dropped finished nodes whose reason is unknown', () => {
    expect(isRepairRoll(snapshot(poolNode('i-ok')), progress([repaired], 2))).toBe(false);
  });

  it('does not hold for a roll with nothing to repair (a scale-in alone is windowed work)', () => {
    expect(isRepairRoll(snapshot(poolNode('i-ok'), poolNode('i-extra')), undefined)).toBe(false);
    expect(isRepairRoll(snapshot(poolNode('i-ok')), progress([]))).toBe(false);
  });
});

describe('repairOutsideWindows', () => {
  const pool = { name: 'workers', profile: 'worker-default' };
  const lost = snapshot(poolNode('i-lost', true, 'repair'), poolNode('i-ok'));

  it('lets a repair roll run outside the windows only where node_repair_outside_windows is set', () => {
    const anytime = renewalSettings(pool, { node_repair: 'true', node_repair_outside_windows: 'true' }, 'c1');
    expect(repairOutsideWindows(lost, undefined, anytime)).toBe(true);
    expect(repairOutsideWindows(lost, undefined, renewalSettings(pool, { node_repair: 'true' }, 'c1'))).toBe(false);
  });
});
