import * as z from '../shared/zod';
import type { RenderedStack } from '../core/render/render-stack';
import type { FilesBundle } from '../core/render/files-bundle';
import { uploadFilesBundles } from './node-files/upload-bundles';
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
  // The etcd stack's files bundle, uploaded just before the stack is first started.
  nodeFiles: 'write',
  pools: 'read',
  registry: 'read',
  progress: 'write',
  artifacts: 'read',
  clock: 'read',
} as const;

/**
 * DeployStacks for one stage: the etcd stack (CLM §6.2 step 10, when the cluster manages it: its files bundle
 * uploaded first) and then the main stack (its outputs go to the run for later templates), the
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
  const { stacks, etcdFiles } = await stageStacks(ports, run.artifacts, stage);
  // The main stage is the etcd stack (when CLM manages it) and then the main stack, one after the other.
  const mode = stage === 'cf-manifests' || stage === 'main' ? 'sequential' : 'parallel';
  const cp = ports.forCluster(cluster);
  if (etcdFiles && !run.stacks[stacks[0]!.name]) await uploadFilesBundles(cp.nodeFiles, cluster, [etcdFiles]);
  const result = await ensureStacks(cp.stacks, stacks, run, now, mode, { rollbackSkips });
  const mainOutputs = stage === 'main' ? result.outputs[mainStackName(cluster)] : undefined;
  await updateRun(ports, ref, (r) => ({
    ...r,
    phase: `DeployStacks ${stage}`,
    stacks: { ...r.stacks, ...result.stacks },
    ...(mainOutputs ? { stackOutputs: mainOutputs } : {}),
  }));
  if (result.failed) throw result.failed;
  if ((stage !== 'worker-pools' && stage !== 'master-pools') || result.step.status !== 'DONE') return result.step;
  // Node repair and age may be set in config-defaults.yaml: the pools are judged by the rendered (effective) items.
  const main = await getArtifact(ports.artifacts, run.artifacts.main ?? '', MainArtifact);
  const rollPools = await poolsToRoll(cp, { ...cluster, configItems: main.configItems }, rollCandidates, run);
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

/** A stage's stacks in order; the main stage's etcd stack comes with the files bundle its nodes download. */
async function stageStacks(
  ports: Pick<Ports, 'artifacts'>,
  artifacts: Readonly<Record<string, string>>,
  stage: DeployStage,
): Promise<{ readonly stacks: readonly RenderedStack[]; readonly etcdFiles?: FilesBundle }> {
  if (stage === 'main') {
    const main = await getArtifact(ports.artifacts, artifacts.main ?? '', MainArtifact);
    return main.etcd
      ? { stacks: [main.etcd.stack, main.mainStack], etcdFiles: main.etcd.files }
      : { stacks: [main.mainStack] };
  }
  const resources = await getArtifact(ports.artifacts, artifacts.resources ?? '', ResourcesArtifact);
  if (stage === 'cf-manifests') return { stacks: resources.cfManifestStacks };
  return { stacks: resources.poolStacks.filter((s) => s.master === (stage === 'master-pools')) };
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
