import { z } from 'zod';
import type { RenderedStack } from '../core/render/render-stack';
import { MainArtifact, ResourcesArtifact } from '../contracts/artifacts';
import { StepOutput, type UpdateOptions } from '../contracts/cluster-update';
import { parseRollbackSkips } from '../core/stacks/stack-recovery';
import { DEPLOY_STAGES, type DeployStage } from '../contracts/status';
import type { Ports } from '../ports/ports';
import { CLM_METRICS } from '../contracts/metrics';
import { defineTask, type PortsFor } from './define-task';
import { getArtifact } from './kit/artifacts';
import { ensureStacks } from './kit/ensure-stacks';
import { openStep } from './kit/open-step';
import { clusterUpdatePayload, runRef } from './kit/payloads';
import { updateRun, type RunRef } from './kit/run-record';

const PORTS = { stacks: 'write', progress: 'write', artifacts: 'read', clock: 'read' } as const;

/**
 * DeployStacks for one stage: the main stack (its outputs go to the run for later templates), the
 * cf-manifests stacks one after another, or a group of node-pool stacks in parallel.
 */
export async function deployStacks(
  ref: RunRef,
  stage: DeployStage,
  ports: PortsFor<typeof PORTS>,
  options: Pick<UpdateOptions, 'skipRollbackResources'> = {},
): Promise<StepOutput> {
  const rollbackSkips = parseRollbackSkips(options.skipRollbackResources ?? []);
  const { run, cluster, now } = await openStep(ports, ref);
  const stacks = await stageStacks(ports, run.artifacts, stage);
  const mode = stage === 'cf-manifests' ? 'sequential' : 'parallel';
  const result = await ensureStacks(ports.forCluster(cluster).stacks, stacks, run, now, mode, { rollbackSkips });
  const mainOutputs = stage === 'main' ? result.outputs[stacks[0]?.name ?? ''] : undefined;
  await updateRun(ports, ref, (r) => ({
    ...r,
    phase: `DeployStacks ${stage}`,
    stacks: { ...r.stacks, ...result.stacks },
    ...(mainOutputs ? { stackOutputs: mainOutputs } : {}),
  }));
  if (result.failed) throw result.failed;
  return result.step;
}

async function stageStacks(
  ports: Pick<Ports, 'artifacts'>,
  artifacts: Readonly<Record<string, string>>,
  stage: DeployStage,
): Promise<readonly RenderedStack[]> {
  if (stage === 'main') {
    return [(await getArtifact(ports.artifacts, artifacts.main ?? '', MainArtifact)).mainStack];
  }
  const resources = await getArtifact(ports.artifacts, artifacts.resources ?? '', ResourcesArtifact);
  if (stage === 'cf-manifests') return resources.cfManifestStacks;
  return resources.poolStacks.filter((s) => s.master === (stage === 'master-pools'));
}

export const task = defineTask({
  name: 'DeployStacks',
  description: 'Creates or updates CloudFormation stacks and reports their progress',
  input: clusterUpdatePayload(z.object({ stage: z.enum(DEPLOY_STAGES) })),
  output: StepOutput,
  ports: PORTS,
  metrics: (output) => [{ name: CLM_METRICS.stackOperations, value: output.started ?? 0 }],
  step: (payload, ports) => deployStacks(runRef(payload), payload.params.stage, ports, payload.state.options),
});
