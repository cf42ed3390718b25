import { TAG_MAIN_STACK, clusterTagKey, mainStackName } from '../cloudformation/stack-names';
import type { Ports } from '../../ports/ports';
import type { StepOutput } from '../../contracts/cluster-update';
import { StackFailedError } from '../../shared/errors';
import { clusterRef, loadRunCluster, renewLease, updateRun, type RunRef } from './run-state';

/** Decommission step 1 (CLM §6.5): scale kube-system Deployments to 0 so controllers stop creating AWS resources. Failures are logged, not fatal. */
export async function scaleDownControllers(ref: RunRef, ports: Ports): Promise<StepOutput> {
  await renewLease(ports, ref);
  const { cluster } = await loadRunCluster(ports, ref);
  const kube = ports.forCluster(cluster).kube;
  try {
    if (!(await kube.ready()))
      return { status: 'DONE', waitSeconds: 1, message: 'API server not reachable; nothing to scale down' };
    const deployments = await kube.list('Deployment', { namespace: 'kube-system' });
    for (const d of deployments) await kube.scaleDeployment('kube-system', d.metadata.name, 0);
    return { status: 'DONE', waitSeconds: 1, message: `Scaled ${deployments.length} kube-system Deployment(s) to 0` };
  } catch (error) {
    return {
      status: 'DONE',
      waitSeconds: 1,
      message: `Could not scale down kube-system controllers (ignored, as CLM): ${(error as Error).message}`,
    };
  }
}

/** Decommission: delete every stack of the cluster but the main one (rounds until none is left), then the main stack. */
export async function deleteClusterStacks(ref: RunRef, stage: 'others' | 'main', ports: Ports): Promise<StepOutput> {
  await renewLease(ports, ref);
  const { cluster } = await loadRunCluster(ports, ref);
  const stacks = ports.forCluster(cluster).stacks;
  const names =
    stage === 'main'
      ? [mainStackName(cluster)]
      : (await stacks.list({ [clusterTagKey(clusterRef(cluster).name)]: 'owned' }))
          .filter((s) => s.tags[TAG_MAIN_STACK] !== 'true')
          .map((s) => s.name);
  const pending: string[] = [];
  for (const name of names) {
    const state = await stacks.describe(name);
    if (!state || state.status === 'DELETE_COMPLETE') continue;
    if (state.status === 'DELETE_FAILED') throw new StackFailedError(name, state.status, state.reason);
    if (state.status !== 'DELETE_IN_PROGRESS') await stacks.delete(name);
    pending.push(name);
  }
  await updateRun(ports, ref, (r) => ({ ...r, phase: `DeleteStacks ${stage}` }));
  return pending.length
    ? { status: 'IN_PROGRESS', waitSeconds: 15, message: `Deleting ${pending.length} stack(s): ${pending.join(', ')}` }
    : {
        status: 'DONE',
        waitSeconds: 1,
        message:
          stage === 'main' ? `Main stack ${mainStackName(cluster)} deleted` : 'All stacks but the main one deleted',
      };
}
