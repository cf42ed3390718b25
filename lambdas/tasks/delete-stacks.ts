import * as z from '../shared/zod';
import { TAG_MAIN_STACK, clusterName, clusterTagKey, mainStackName } from '../core/cloudformation/stack-names';
import { clusterRef } from '../core/model/cluster-ref';
import { StepOutput } from '../contracts/cluster-update';
import { DELETE_STAGES, type DeleteStage } from '../contracts/status';
import { defineTask, type PortsFor } from './define-task';
import { openStep } from './step/open-step';
import { clusterUpdatePayload, runRef } from './step/payloads';
import { updateRun, type RunRef } from './step/run-record';
import { deleteStacksPass } from './stacks/stack-deletion';
import { assertNotHeld } from './step/hold-gate';

const PORTS = {
  stacks: 'write',
  pools: 'write',
  registry: 'read',
  progress: 'write',
  artifacts: 'read',
  clock: 'read',
} as const;

/**
 * Decommission: delete every stack of the cluster but the main one (rounds until none is left), then the main stack.
 * Before the stacks (CLM §6.5 step 2): the instances Karpenter launched (tag key `karpenter.sh/nodepool`, no stack
 * owns them) are terminated, and the step polls until none is pending or running; the controllers were scaled down
 * first (ScaleDownControllers), so Karpenter launches no new ones.
 */
export async function deleteClusterStacks(
  ref: RunRef,
  stage: DeleteStage,
  ports: PortsFor<typeof PORTS>,
): Promise<StepOutput> {
  const { cluster } = await openStep(ports, ref);
  await assertNotHeld(ports, cluster, `DeleteStacks (${stage})`);
  const stacks = ports.forCluster(cluster).stacks;
  if (stage === 'others') {
    const pools = ports.forCluster(cluster).pools;
    const karpenter = await pools.karpenterInstances(clusterRef(cluster));
    if (karpenter.length) {
      await pools.terminateInstances(
        clusterRef(cluster),
        karpenter.map((i) => i.instanceId),
      );
      await updateRun(ports, ref, (r) => ({ ...r, phase: 'DeleteStacks karpenter-instances' }));
      return {
        status: 'IN_PROGRESS',
        waitSeconds: 15,
        message: `Terminating ${karpenter.length} Karpenter instance(s) before the stacks: ${karpenter.map((i) => i.instanceId).join(', ')}`,
      };
    }
  }
  const names =
    stage === 'main'
      ? [mainStackName(cluster)]
      : (await stacks.list({ [clusterTagKey(clusterName(cluster))]: 'owned' }))
          .filter((s) => s.tags[TAG_MAIN_STACK] !== 'true')
          .map((s) => s.name);
  // Decommission deletes every stack of the cluster: termination protection goes just before each DeleteStack (the
  // main stack's only here, in the last stage).
  const pending = await deleteStacksPass(stacks, names, () => true);
  await updateRun(ports, ref, (r) => ({ ...r, phase: `DeleteStacks ${stage}` }));
  if (pending.length) {
    return {
      status: 'IN_PROGRESS',
      waitSeconds: 15,
      message: `Deleting ${pending.length} stack(s): ${pending.join(', ')}`,
    };
  }
  const message =
    stage === 'main' ? `Main stack ${mainStackName(cluster)} deleted` : 'All stacks but the main one deleted';
  return { status: 'DONE', waitSeconds: 1, message };
}

export const task = defineTask({
  name: 'DeleteStacks',
  description: 'Deletes cluster stacks (decommission)',
  input: clusterUpdatePayload(z.object({ stage: z.enum(DELETE_STAGES) })),
  output: StepOutput,
  ports: PORTS,
  step: (payload, ports) => deleteClusterStacks(runRef(payload), payload.params.stage, ports),
});
