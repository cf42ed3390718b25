import { TAG_NODE_POOL, TAG_NODE_POOL_ROLE, clusterTagKey } from '../core/cloudformation/stack-names';
import { isKarpenterPool, type Cluster } from '../core/model/cluster';
import { clusterRef } from '../core/model/cluster-ref';
import type { NodeProgress } from '../core/model/run';
import { DRAIN_START_ANNOTATION, LIFECYCLE_LABEL, poolSnapshot } from '../core/rollout/pool-snapshot';
import { rollPolicy } from '../core/rollout/roll-policy';
import type { MainArtifact } from '../contracts/artifacts';
import { StepOutput } from '../contracts/cluster-update';
import type { ClusterPorts } from '../ports/ports';
import { StackFailedError } from '../shared/errors';
import { defineTask, type PortsFor } from './define-task';
import { drainPass } from './kit/drain-pass';
import { openStep } from './kit/open-step';
import { clusterUpdatePayload, runRef } from './kit/payloads';
import { updateRun, type RunRef } from './kit/run-record';

const PORTS = {
  stacks: 'write',
  pools: 'write',
  kube: 'write',
  progress: 'write',
  artifacts: 'read',
  clock: 'read',
} as const;

/**
 * CLM §6.2 step 22: node-pool stacks of this cluster whose pool left the registry are drained (scale to
 * zero through cordon, drain and terminate-with-decrement, PDBs respected) and then deleted.
 */
export async function removeDeletedPools(ref: RunRef, ports: PortsFor<typeof PORTS>): Promise<StepOutput> {
  const { run, cluster, main, now } = await openStep(ports, ref, { artifacts: ['main'] });
  const cp = ports.forCluster(cluster);
  const current = new Set(cluster.nodePools.filter((p) => !isKarpenterPool(p)).map((p) => p.name));
  const stacks = await cp.stacks.list({
    [clusterTagKey(clusterRef(cluster).name)]: 'owned',
    [TAG_NODE_POOL_ROLE]: 'true',
  });
  const removed = stacks.filter((s) => s.tags[TAG_NODE_POOL] && !current.has(s.tags[TAG_NODE_POOL]!));
  if (removed.length === 0) return { status: 'DONE', waitSeconds: 1, message: 'No node pools to remove' };

  const messages: string[] = [];
  let waitSeconds = 15;
  let nodes: Record<string, NodeProgress> = { ...(run.pools['removed']?.nodes ?? {}) };
  for (const stack of removed) {
    const pool = stack.tags[TAG_NODE_POOL]!;
    if (stack.status === 'DELETE_IN_PROGRESS') {
      messages.push(`deleting stack ${stack.name}`);
      continue;
    }
    if (stack.status === 'DELETE_FAILED') throw new StackFailedError(stack.name, stack.status, stack.reason);
    const drained = await drainPool(cp, cluster, pool, main, nodes, now);
    nodes = drained.nodes;
    if (drained.remaining > 0) {
      messages.push(
        `${pool}: ${drained.remaining} node(s) left${drained.blocked ? `; blocked by ${drained.blocked}` : ''}`,
      );
      waitSeconds = Math.min(waitSeconds, drained.waitSeconds);
      continue;
    }
    // A pool stack, drained: its termination protection goes just before DeleteStack.
    await cp.stacks.delete(stack.name, { disableTerminationProtection: true });
    messages.push(`deleting stack ${stack.name}`);
  }
  await updateRun(ports, ref, (r) => ({
    ...r,
    phase: 'RemoveDeletedPools',
    pools: {
      ...r.pools,
      removed: { ...(r.pools['removed'] ?? { status: 'rolling', total: 0, replaced: 0, steps: 0 }), nodes },
    },
  }));
  return {
    status: 'IN_PROGRESS',
    waitSeconds,
    message: `Removing ${removed.length} node pool(s): ${messages.join('; ')}`,
  };
}

async function drainPool(
  cp: Pick<ClusterPorts, 'pools' | 'kube'>,
  cluster: Cluster,
  pool: string,
  main: MainArtifact,
  known: Record<string, NodeProgress>,
  now: number,
) {
  const target = clusterRef(cluster);
  const state = await cp.pools.getPool(target, pool);
  if (!state || state.instances.length === 0) return { nodes: known, remaining: 0, waitSeconds: 1, blocked: undefined };
  await cp.pools.markForDecommission(target, pool);
  const snapshot = poolSnapshot(state, await cp.kube.listNodes());
  const policy = rollPolicy({ name: pool, maxSize: state.max, discountStrategy: '' }, main.configItems, cluster.id);
  const nodes = { ...known };
  let blocked: string | undefined;
  let waitSeconds = Math.ceil(policy.drain.pollIntervalMs / 1000);
  for (const n of snapshot.nodes) {
    if (nodes[n.instanceId]?.state === 'terminated') continue;
    let progress = nodes[n.instanceId] ?? {
      instanceId: n.instanceId,
      availabilityZone: n.availabilityZone,
      state: 'draining' as const,
      cordonedAt: now,
      drainStartedAt: now,
    };
    if (n.node) {
      if (!n.node.unschedulable) {
        await cp.kube.patchNode(n.node.name, {
          unschedulable: true,
          labels: { [LIFECYCLE_LABEL]: 'draining' },
          annotations: { [DRAIN_START_ANNOTATION]: new Date(progress.drainStartedAt ?? now).toISOString() },
        });
      }
      const outcome = await drainPass(cp.kube, n.node.name, { ...progress, nodeName: n.node.name }, policy.drain, now);
      progress = outcome.progress;
      if (!outcome.empty) {
        nodes[n.instanceId] = progress;
        blocked ??= outcome.blocked[0];
        if (outcome.terminatingSeconds > 0) waitSeconds = Math.min(waitSeconds, outcome.terminatingSeconds + 1);
        continue;
      }
    }
    await cp.pools.terminate(target, n.instanceId, true);
    nodes[n.instanceId] = { ...progress, state: 'terminated', terminatedAt: now };
  }
  const remaining = snapshot.nodes.filter((n) => nodes[n.instanceId]?.state !== 'terminated').length;
  return { nodes, remaining, waitSeconds, blocked };
}

export const task = defineTask({
  name: 'RemoveDeletedPools',
  description: 'Drains and deletes removed node pools',
  input: clusterUpdatePayload(),
  output: StepOutput,
  ports: PORTS,
  step: (payload, ports) => removeDeletedPools(runRef(payload), ports),
});
