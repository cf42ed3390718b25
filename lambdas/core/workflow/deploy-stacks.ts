import type { Ports } from '../../ports/ports';
import type { StepOutput } from '../../contracts/cluster-update';
import type { DeployStage } from '../../contracts/status';
import { KubeApiError } from '../../shared/errors';
import { getJson, type MainArtifact, type RenderedStack, type ResourcesArtifact } from './artifacts';
import { ensureStacks } from './ensure-stacks';
import { loadRun, loadRunCluster, renewLease, updateRun, type RunRef } from './run-state';

/** CLM waits up to 15 min for the API server after the master pools (§6.2 step 18). */
export const API_SERVER_TIMEOUT_MS = 15 * 60 * 1000;
const API_SERVER_POLL_SECONDS = 15;

/**
 * DeployStacks for one stage: the main stack (its outputs go to the run for later templates), the
 * cf-manifests stacks one after another, or a group of node-pool stacks in parallel.
 */
export async function deployStacks(ref: RunRef, stage: DeployStage, ports: Ports): Promise<StepOutput> {
  await renewLease(ports, ref);
  const run = await loadRun(ports, ref);
  const { cluster } = await loadRunCluster(ports, ref);
  const stacks = await stageStacks(ports, run.artifacts, stage);
  const result = await ensureStacks(
    ports.forCluster(cluster).stacks,
    stacks,
    run,
    ports.clock.now(),
    stage === 'cf-manifests' ? 'sequential' : 'parallel',
  );
  const mainOutputs = stage === 'main' ? result.outputs[stacks[0]?.name ?? ''] : undefined;
  await updateRun(ports, ref, (r) => ({
    ...r,
    phase: `DeployStacks ${stage}`,
    stacks: { ...r.stacks, ...result.stacks },
    ...(mainOutputs ? { stackOutputs: mainOutputs } : {}),
  }));
  return result.step;
}

async function stageStacks(
  ports: Ports,
  artifacts: Readonly<Record<string, string>>,
  stage: DeployStage,
): Promise<readonly RenderedStack[]> {
  if (stage === 'main') return [(await getJson<MainArtifact>(ports.artifacts, artifacts.main ?? '')).mainStack];
  const resources = await getJson<ResourcesArtifact>(ports.artifacts, artifacts.resources ?? '');
  if (stage === 'cf-manifests') return resources.cfManifestStacks;
  return resources.poolStacks.filter((s) => s.master === (stage === 'master-pools'));
}

/** WaitForApiServer: GET /readyz until it answers, at most 15 min (zalando-eks: EKS runs the control plane). */
export async function waitForApiServer(ref: RunRef, ports: Ports): Promise<StepOutput> {
  await renewLease(ports, ref);
  const { cluster } = await loadRunCluster(ports, ref);
  if (cluster.provider === 'zalando-eks')
    return { status: 'DONE', waitSeconds: 1, message: 'EKS runs the control plane' };
  const now = ports.clock.now();
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
