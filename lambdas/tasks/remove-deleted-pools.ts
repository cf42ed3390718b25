import { TAG_NODE_POOL, TAG_NODE_POOL_ROLE, clusterTagKey } from '../core/cloudformation/stack-names';
import { isKarpenterPool } from '../core/model/cluster';
import { clusterRef } from '../core/model/cluster-ref';
import { aliveInstances } from '../core/rollout/pool-snapshot';
import { StepOutput } from '../contracts/cluster-update';
import { MAX_NODE_POOLS } from '../contracts/status';
import { StackFailedError } from '../shared/errors';
import { defineTask, type PortsFor } from './define-task';
import { openStep } from './step/open-step';
import { clusterUpdatePayload, runRef } from './step/payloads';
import { updateRun, type RunRef } from './step/run-record';
import { karpenterRemovalPass } from './karpenter/karpenter-removal';
import { assertNotHeld } from './step/hold-gate';

const PORTS = {
  stacks: 'write',
  pools: 'read',
  kube: 'write',
  registry: 'read',
  progress: 'write',
  artifacts: 'read',
  clock: 'read',
} as const;

/**
 * CLM §6.2 step 22: node-pool stacks of this cluster whose pool left the registry are drained to zero, then deleted.
 * The drain is not done here: a pool with nodes left is answered `DRAIN` with its name, and the state machine rolls it
 * away through the node-pool-rollout child (DrainRemovedPools, RollNodePool with `removal`: MinSize 0, the
 * cluster-autoscaler tag removed, CLM's no-replacement label, one node at a time with the roll's PDB care, hooks,
 * volume detach wait and health gate), which hands over to a fresh execution before its history grows long. This
 * task's own loop then only waits for CloudFormation to delete the stacks. Karpenter pools that left the registry
 * (§6.2 step 23, karpenter/karpenter-removal.ts): their NodePool is deleted, their nodes drained the same way, then their
 * EC2NodeClass deleted.
 */
export async function removeDeletedPools(ref: RunRef, ports: PortsFor<typeof PORTS>): Promise<StepOutput> {
  const { cluster } = await openStep(ports, ref);
  await assertNotHeld(ports, cluster, 'RemoveDeletedPools');
  const cp = ports.forCluster(cluster);
  const target = clusterRef(cluster);
  const current = new Set(cluster.nodePools.filter((p) => !isKarpenterPool(p)).map((p) => p.name));
  const karpenter = await karpenterRemovalPass(
    cp.kube,
    cp.pools,
    target,
    new Set(cluster.nodePools.filter(isKarpenterPool).map((p) => p.name)),
  );
  const stacks = await cp.stacks.list({ [clusterTagKey(target.name)]: 'owned', [TAG_NODE_POOL_ROLE]: 'true' });
  const removed = stacks.filter((s) => s.tags[TAG_NODE_POOL] && !current.has(s.tags[TAG_NODE_POOL]!));
  if (removed.length === 0 && karpenter.drain.length === 0 && karpenter.shuttingDown > 0)
    return { status: 'IN_PROGRESS', waitSeconds: 15, message: `Karpenter: ${karpenter.messages.join('; ')}` };
  if (removed.length === 0 && karpenter.drain.length === 0)
    return {
      status: 'DONE',
      waitSeconds: 1,
      message: karpenter.messages.length ? `Karpenter: ${karpenter.messages.join('; ')}` : 'No node pools to remove',
    };

  const messages: string[] = [...karpenter.messages];
  const drain: string[] = [...karpenter.drain];
  const deletable: string[] = [];
  for (const stack of removed) {
    const pool = stack.tags[TAG_NODE_POOL]!;
    if (stack.status === 'DELETE_IN_PROGRESS') {
      messages.push(`deleting stack ${stack.name}`);
      continue;
    }
    if (stack.status === 'DELETE_FAILED') throw new StackFailedError(stack.name, stack.status, stack.reason);
    const state = await cp.pools.getPool(target, pool);
    const left = state ? aliveInstances(state).length : 0;
    if (left > 0) {
      drain.push(pool);
      messages.push(`${pool}: ${left} node(s) to drain`);
    } else deletable.push(stack.name);
  }
  if (drain.length > 0) {
    await updateRun(ports, ref, (r) => ({ ...r, phase: 'RemoveDeletedPools' }));
    return {
      status: 'DRAIN',
      waitSeconds: 1,
      // One drain Map takes at most MAX_NODE_POOLS pools (its history bound); the rest go in the next run.
      drainPools: [...new Set(drain)].sort().slice(0, MAX_NODE_POOLS),
      message: `Removing ${removed.length + karpenter.drain.length} node pool(s): ${messages.join('; ')}`,
    };
  }
  for (const name of deletable) {
    // A pool stack, drained: its termination protection goes just before DeleteStack.
    await cp.stacks.delete(name, { disableTerminationProtection: true });
    messages.push(`deleting stack ${name}`);
  }
  return {
    status: 'IN_PROGRESS',
    waitSeconds: 15,
    message: `Removing ${removed.length} node pool(s): ${messages.join('; ')}`,
  };
}

export const task = defineTask({
  name: 'RemoveDeletedPools',
  description: 'Deletes the stacks of removed node pools once their nodes are drained away (DrainRemovedPools)',
  input: clusterUpdatePayload(),
  output: StepOutput,
  ports: PORTS,
  step: (payload, ports) => removeDeletedPools(runRef(payload), ports),
});
