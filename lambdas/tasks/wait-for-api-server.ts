import { isMasterPool, type Cluster } from '../core/model/cluster';
import type { RunRecord } from '../core/model/run';
import { DEFAULT_NODE_BOOT_SECONDS, operationWaitSeconds } from '../core/schedule/operation-wait';
import { StepOutput } from '../contracts/cluster-update';
import { KubeApiError } from '../shared/errors';
import { defineTask, type PortsFor } from './define-task';
import { openStep } from './step/open-step';
import { clusterUpdatePayload, runRef } from './step/payloads';
import { updateRun, type RunRef } from './step/run-record';

/** CLM waits up to 15 min for the API server after the master pools (§6.2 step 18). */
export const API_SERVER_TIMEOUT_MS = 15 * 60 * 1000;

const PORTS = { kube: 'read', progress: 'write', artifacts: 'read', clock: 'read' } as const;

/**
 * WaitForApiServer: GET /readyz until it answers, at most 15 min (zalando-eks: EKS runs the control plane). The API
 * server answers once a master node has booted, so the first wait is a master's boot time (learned by earlier runs,
 * else typical), then back-off. It passes on the master pools DeployStacks found something to roll in (`rollPools`
 * of the step before it, carried through its own polls), for RollMasterPools.
 */
export async function waitForApiServer(
  ref: RunRef,
  ports: PortsFor<typeof PORTS>,
  rollPools: readonly string[] = [],
): Promise<StepOutput> {
  const { cluster, now } = await openStep(ports, ref);
  const pools = { rollPools: [...rollPools], rollPoolCount: rollPools.length };
  if (cluster.provider === 'zalando-eks')
    return { status: 'DONE', waitSeconds: 1, message: 'EKS runs the control plane', ...pools };
  if (await ports.forCluster(cluster).kube.ready())
    return { status: 'DONE', waitSeconds: 1, message: `API server ${cluster.apiServerUrl} is ready`, ...pools };
  const run = await updateRun(ports, ref, (r) =>
    r.counters.apiWaitStartedAt ? r : { ...r, counters: { ...r.counters, apiWaitStartedAt: now } },
  );
  const waited = now - (run.counters.apiWaitStartedAt ?? now);
  if (waited > API_SERVER_TIMEOUT_MS) {
    throw new KubeApiError(
      `API server ${cluster.apiServerUrl} was not ready within ${API_SERVER_TIMEOUT_MS / 60000} minutes after the master pools were deployed`,
    );
  }
  const startedAt = run.counters.apiWaitStartedAt ?? now;
  return {
    status: 'IN_PROGRESS',
    waitSeconds: operationWaitSeconds(startedAt, masterBootMs(cluster, run), now),
    ...pools,
    message: `Waiting for API server ${cluster.apiServerUrl} (${Math.round(waited / 1000)} s)`,
  };
}

/** The longest boot learned for a master pool of this cluster, or a typical boot. */
function masterBootMs(cluster: Cluster, run: Pick<RunRecord, 'learnedBootMs'>): number {
  const learned = cluster.nodePools
    .filter(isMasterPool)
    .map((p) => run.learnedBootMs?.[p.name])
    .filter((ms): ms is number => ms !== undefined);
  return learned.length ? Math.max(...learned) : DEFAULT_NODE_BOOT_SECONDS * 1000;
}

export const task = defineTask({
  name: 'WaitForApiServer',
  description: 'Checks that the API server answers',
  input: clusterUpdatePayload(),
  output: StepOutput,
  ports: PORTS,
  step: (payload, ports) => waitForApiServer(runRef(payload), ports, payload.state.step?.rollPools),
});
