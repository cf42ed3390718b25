// Removed pools (CLM §7.3 PrepareForRemoval, §6.2 step 22) are drained through the node-pool-rollout child, not inside
// the parent: RemoveDeletedPools answers DRAIN with the pools and touches no node; RollNodePool in removal mode marks the
// pool for decommission (MinSize 0, no cluster-autoscaler), labels the nodes for no replacement and drains them away
// one at a time with the roll's PDB care; then RemoveDeletedPools deletes the stack.
import { TAG_NODE_POOL, TAG_NODE_POOL_ROLE, clusterTagKey } from '../../lambdas/core/cloudformation/stack-names';
import { clusterRef } from '../../lambdas/core/model/cluster-ref';
import type { RollStepOutput, RolloutState } from '../../lambdas/contracts/cluster-update';
import { REPLACEMENT_STRATEGY_LABEL } from '../../lambdas/tasks/roll/roll-actions';
import { removeDeletedPools } from '../../lambdas/tasks/remove-deleted-pools';
import { rollNodePool } from '../../lambdas/tasks/roll-node-pool';
import { fakeEnv, seedRun, testCluster, testPool, type FakeEnv } from '../support/fakes';

const TARGET = 'c0ffee#abc';
const HOLDER = 'exec-1';
const ZONES = ['eu-central-1a', 'eu-central-1b', 'eu-central-1c'];

async function setup(): Promise<{ env: FakeEnv; cluster: ReturnType<typeof testCluster>; old: string[] }> {
  const cluster = testCluster({ nodePools: [testPool()] });
  const env = fakeEnv({ clusters: [cluster] });
  env.kube.addDaemonSet('kube-proxy');
  env.pools.addPool('workers', 2, ZONES);
  env.pools.addPool('legacy', 3, ZONES, { min: 3 });
  const old = env.pools.pools.get('legacy')!.instances.map((i) => i.id);
  env.kube.addWorkload(
    { kind: 'Deployment', namespace: 'default', name: 'web', replicas: 3, labels: { app: 'web' } },
    old.map((id) => env.pools.nodeName(id)),
  );
  env.kube.addPdb('default', 'web', { app: 'web' }, 2);
  env.stacks.setStack('nodepool-legacy', '{}', 'UPDATE_COMPLETE');
  env.stacks.stacks.get('nodepool-legacy')!.tags = {
    [clusterTagKey(clusterRef(cluster).name)]: 'owned',
    [TAG_NODE_POOL_ROLE]: 'true',
    [TAG_NODE_POOL]: 'legacy',
  };
  await seedRun(env, cluster, { targetVersion: TARGET, holder: HOLDER });
  return { env, cluster, old };
}

const ref = (cluster: ReturnType<typeof testCluster>) => ({
  clusterId: cluster.id,
  targetVersion: TARGET,
  holder: HOLDER,
});

describe('RemoveDeletedPools', () => {
  it('hands a removed pool with nodes to the rollout child (DRAIN) and drains nothing itself', async () => {
    const { env, cluster } = await setup();

    const output = await removeDeletedPools(ref(cluster), env.ports);

    expect(output).toEqual({
      status: 'DRAIN',
      waitSeconds: 1,
      drainPools: ['legacy'],
      message: 'Removing 1 node pool(s): legacy: 3 node(s) to drain',
    });
    expect(env.kube.calls.filter((c) => /^(evictPod|deletePod|patchNode)/.test(c))).toEqual([]);
    expect(env.pools.calls.filter((c) => /^(terminate|markForDecommission|scale)/.test(c))).toEqual([]);
    expect(env.stacks.stacks.get('nodepool-legacy')!.status).toBe('UPDATE_COMPLETE');
  });
});

describe('RollNodePool in removal mode, then RemoveDeletedPools', () => {
  it('drains the pool to zero one node at a time, as CLM removes a pool, then the stack is deleted', async () => {
    const { env, cluster, old } = await setup();
    const input: RolloutState = {
      clusterId: cluster.id,
      targetVersion: TARGET,
      holder: HOLDER,
      pool: 'legacy',
      options: { applyOnly: false },
      removal: true,
    };
    const labelled = new Set<string>();
    let concurrent = 0;
    let previous: RollStepOutput | undefined;
    for (let i = 0; i < 200; i++) {
      previous = await rollNodePool({ ...input, ...(previous ? { step: previous } : {}) }, env.ports);
      for (const node of env.kube.nodes.values())
        if (node.labels[REPLACEMENT_STRATEGY_LABEL] === 'none') labelled.add(node.name);
      concurrent = Math.max(
        concurrent,
        [...env.kube.nodes.values()].filter((n) => old.includes(n.providerId.split('/').pop()!) && n.unschedulable)
          .length,
      );
      if (previous.status === 'DONE') break;
      env.clock.advance(previous.waitSeconds * 1000);
    }
    const legacy = env.pools.pools.get('legacy')!;
    const afterDrain = await removeDeletedPools(ref(cluster), env.ports);

    expect(previous?.status).toBe('DONE');
    expect(env.pools.calls.filter((c) => c.startsWith('markForDecommission'))).toEqual(['markForDecommission legacy']);
    expect({ desired: legacy.desired, min: legacy.min, instances: legacy.instances.length }).toEqual({
      desired: 0,
      min: 0,
      instances: 0,
    });
    expect(env.pools.calls.filter((c) => c.startsWith('terminate')).sort()).toEqual(
      old.map((id) => `terminate ${id} decrement`).sort(),
    );
    expect([...labelled].sort()).toEqual(old.map((id) => env.pools.nodeName(id)).sort());
    expect(concurrent).toBe(1);
    expect(env.kube.pdbViolations).toBe(0);
    expect(env.pools.terminatedTwice).toBe(0);
    expect(env.pools.pools.get('workers')!.instances).toHaveLength(2);
    expect(afterDrain).toMatchObject({
      status: 'IN_PROGRESS',
      message: expect.stringContaining('deleting stack nodepool-legacy'),
    });
    expect(env.stacks.stacks.get('nodepool-legacy')!.status).toBe('DELETE_IN_PROGRESS');
  });

  it('leaves a pool alone that is in the registry again', async () => {
    const { env, cluster } = await setup();

    const output = await rollNodePool(
      {
        clusterId: cluster.id,
        targetVersion: TARGET,
        holder: HOLDER,
        pool: 'workers',
        options: { applyOnly: false },
        removal: true,
      },
      env.ports,
    );

    expect(output).toMatchObject({ status: 'DONE', message: 'Pool workers is in the registry again: not removed' });
    expect(env.pools.calls.filter((c) => /^(terminate|markForDecommission)/.test(c))).toEqual([]);
  });
});
