import { StepOutput } from '../contracts/cluster-update';
import { KubeApiError } from '../shared/errors';
import { defineTask, type PortsFor } from './define-task';
import { openStep } from './kit/open-step';
import { clusterUpdatePayload, runRef } from './kit/payloads';
import { updateRun, type RunRef } from './kit/run-record';

/** CLM waits up to 15 min for the API server after the master pools (§6.2 step 18). */
export const API_SERVER_TIMEOUT_MS = 15 * 60 * 1000;
const API_SERVER_POLL_SECONDS = 15;

const PORTS = { kube: 'read', progress: 'write', artifacts: 'read', clock: 'read' } as const;

/** WaitForApiServer: GET /readyz until it answers, at most 15 min (zalando-eks: EKS runs the control plane). */
export async function waitForApiServer(ref: RunRef, ports: PortsFor<typeof PORTS>): Promise<StepOutput> {
  const { cluster, now } = await openStep(ports, ref);
  if (cluster.provider === 'zalando-eks')
    return { status: 'DONE', waitSeconds: 1, message: 'EKS runs the control plane' };
  if (await ports.forCluster(cluster).kube.ready()) {
    return { status: 'DONE', waitSeconds: 1, message: `API server ${cluster.apiServerUrl} is ready` };
  }
  const run = await updateRun(ports, ref, (r) =>
    r.counters.apiWaitStartedAt ? r : { ...r, counters: { ...r.counters, apiWaitStartedAt: now } },
  );
  const waited = now - (run.counters.apiWaitStartedAt ?? now);
  if (waited > API_SERVER_TIMEOUT_MS) {
    throw new KubeApiError(
      `API server ${cluster.apiServerUrl} was not ready within ${API_SERVER_TIMEOUT_MS / 60000} minutes after the master pools were deployed`,
    );
  }
  return {
    status: 'IN_PROGRESS',
    waitSeconds: API_SERVER_POLL_SECONDS,
    message: `Waiting for API server ${cluster.apiServerUrl} (${Math.round(waited / 1000)} s)`,
  };
}

export const task = defineTask({
  name: 'WaitForApiServer',
  description: 'Checks that the API server answers',
  input: clusterUpdatePayload(),
  output: StepOutput,
  ports: PORTS,
  step: (payload, ports) => waitForApiServer(runRef(payload), ports),
});
