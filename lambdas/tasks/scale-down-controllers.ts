import { StepOutput } from '../contracts/cluster-update';
import { defineTask, type PortsFor } from './define-task';
import { openStep } from './step/open-step';
import { clusterUpdatePayload, runRef } from './step/payloads';
import type { RunRef } from './step/run-record';
import { assertNotHeld } from './step/hold-gate';

const PORTS = { kube: 'write', registry: 'read', progress: 'write', artifacts: 'read', clock: 'read' } as const;

/**
 * Decommission step 1 (CLM §6.5): scale kube-system Deployments to 0 so controllers stop creating AWS resources.
 * Failures are reported, not fatal (as CLM).
 */
export async function scaleDownControllers(ref: RunRef, ports: PortsFor<typeof PORTS>): Promise<StepOutput> {
  const { cluster } = await openStep(ports, ref);
  await assertNotHeld(ports, cluster, 'ScaleDownControllers');
  const kube = ports.forCluster(cluster).kube;
  try {
    if (!(await kube.ready())) {
      return { status: 'DONE', waitSeconds: 1, message: 'API server not reachable; nothing to scale down' };
    }
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

export const task = defineTask({
  name: 'ScaleDownControllers',
  description: 'Scales down controllers before decommissioning',
  input: clusterUpdatePayload(),
  output: StepOutput,
  ports: PORTS,
  step: (payload, ports) => scaleDownControllers(runRef(payload), ports),
});
