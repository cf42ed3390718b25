import * as z from 'zod';
import type { RenderedStack } from '../core/render/render-stack';
import { mainStackName } from '../core/cloudformation/stack-names';
import type { StackStep } from '../core/cluster-stacks/layer-changes';
import type { Cluster } from '../core/model/cluster';
import { MainArtifact, ResourcesArtifact } from '../contracts/artifacts';
import { StepOutput, type UpdateOptions } from '../contracts/cluster-update';
import { parseRollbackSkips } from '../core/stacks/stack-recovery';
import { DEPLOY_STAGES, type DeployStage } from '../contracts/status';
import type { Ports } from '../ports/ports';
import { CLM_METRICS } from '../contracts/metrics';
import { defineTask, type PortsFor } from './define-task';
import { getArtifact } from './step/artifacts';
import { skippedStep } from './cluster-stacks/cluster-stack';
import { ensureStacks } from './stacks/ensure-stacks';
import { openStep } from './step/open-step';
import { poolsToRoll } from './stacks/pools-to-roll';
import { clusterUpdatePayload, runRef } from './step/payloads';
import { updateRun, type RunRef } from './step/run-record';
import { assertNotHeld } from './step/hold-gate';

const PORTS = {
  stacks: 'write',
  pools: 'read',
  registry: 'read',
  progress: 'write',
  artifacts: 'read',
  clock: 'read',
} as const;

/**
 * DeployStacks for one stage: the main stack (its outputs go to the run for later templates), the
 * cf-manifests stacks one after another, or a group of node-pool stacks in parallel. When a group's pool stacks are
 * done, it says which of `rollCandidates` (that group's pools RenderClusterResources would roll) have something to
 * roll (for the masters WaitForApiServer passes it on).
 */
export async function deployStacks(
  ref: RunRef,
  stage: DeployStage,
  ports: PortsFor<typeof PORTS>,
  rollCandidates: readonly string[] = [],
  options: Pick<UpdateOptions, 'skipRollbackResources'> = {},
): Promise<StepOutput> {
  const rollbackSkips = parseRollbackSkips(options.skipRollbackResources ?? []);
  const { run, cluster, pinned, now } = await openStep(ports, ref);
  await assertNotHeld(ports, cluster, `DeployStacks (${stage})`);
  const skipped = skippedStep(pinned, STAGE_STEPS[stage]);
  if (skipped) {
    const answer = await skipStage(ports, ref, cluster, stage, skipped);
    // A skipped pool stage rolls nothing: the roll Map after it is skipped too.
    return stage === 'master-pools' || stage === 'worker-pools'
      ? { ...answer, rollPools: [], rollPoolCount: 0 }
      : answer;
  }
  const stacks = await stageStacks(ports, run.artifacts, stage);
  const mode = stage === 'cf-manifests' ? 'sequential' : 'parallel';
  const cp = ports.forCluster(cluster);
  const result = await ensureStacks(cp.stacks, stacks, run, now, mode, { rollbackSkips });
  const mainOutputs = stage === 'main' ? result.outputs[stacks[0]?.name ?? ''] : undefined;
  await updateRun(ports, ref, (r) => ({
    ...r,
    phase: `DeployStacks ${stage}`,
    stacks: { ...r.stacks, ...result.stacks },
    ...(mainOutputs ? { stackOutputs: mainOutputs } : {}),
  }));
  if (result.failed) throw result.failed;
  if ((stage !== 'worker-pools' && stage !== 'master-pools') || result.step.status !== 'DONE') return result.step;
  const rollPools = await poolsToRoll(cp, cluster, rollCandidates, run);
  return { ...result.step, rollPools, rollPoolCount: rollPools.length };
}

/** The layer step each stage belongs to (core/cluster-stacks/layer-changes.ts). */
const STAGE_STEPS: Readonly<Record<DeployStage, StackStep>> = {
  main: 'mainStack',
  'cf-manifests': 'cfManifestStacks',
  'master-pools': 'poolStacks',
  'worker-pools': 'poolStacks',
};

/** A skipped stage deploys nothing; a skipped main stack still gives its outputs to the later templates. */
async function skipStage(
  ports: PortsFor<typeof PORTS>,
  ref: RunRef,
  cluster: Cluster,
  stage: DeployStage,
  skipped: StepOutput,
): Promise<StepOutput> {
  const outputs =
    stage === 'main' ? (await ports.forCluster(cluster).stacks.describe(mainStackName(cluster)))?.outputs : undefined;
  await updateRun(ports, ref, (r) => ({
    ...r,
    phase: `DeployStacks ${stage}`,
    ...(outputs ? { stackOutputs: outputs } : {}),
  }));
  return skipped;
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
  step: (payload, ports) =>
    deployStacks(
      runRef(payload),
      payload.params.stage,
      ports,
      payload.params.stage === 'master-pools'
        ? payload.state.resources?.rollMasterPools
        : payload.state.resources?.rollWorkerPools,
      payload.state.options,
    ),
});
