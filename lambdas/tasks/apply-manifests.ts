import * as z from 'zod';
import { mainStackName } from '../core/cloudformation/stack-names';
import { applyBatches, inventoryKey, objectRef, pruneCandidates } from '../core/manifests/inventory';
import type { ResourcesArtifact } from '../contracts/artifacts';
import { StepOutput } from '../contracts/cluster-update';
import { MANIFEST_PHASES, type ManifestPhase } from '../contracts/status';
import type { KubeCluster } from '../ports/kube-cluster';
import type { Ports } from '../ports/ports';
import { defineTask, type PortsFor } from './define-task';
import { skippedStep } from './kit/cluster-stack';
import { openStep, type OpenedStep } from './kit/open-step';
import { clusterUpdatePayload, runRef } from './kit/payloads';
import { updateRun, type RunRef } from './kit/run-record';
import { runDeletions } from './kit/run-deletions';
import { deleteStacksPass } from './kit/stack-deletion';

/** Our field manager for server-side apply. */
export const FIELD_MANAGER = 'clm';

const PORTS = { kube: 'write', stacks: 'write', progress: 'write', artifacts: 'read', clock: 'read' } as const;
type ApplyPorts = PortsFor<typeof PORTS>;

/**
 * The apply phase in three states: pre-apply deletions (Kubernetes, then CloudFormation), server-side
 * apply of every manifest (CRDs and Namespaces first, then components in order) with pruning of objects
 * applied last time and no longer rendered, and post-apply deletions.
 */
export async function applyManifests(ref: RunRef, phase: ManifestPhase, ports: ApplyPorts): Promise<StepOutput> {
  const { run, cluster, pinned, resources, now } = await openStep(ports, ref, { artifacts: ['resources'] });
  if (run.manifestPhases[phase] !== undefined) {
    return { status: 'DONE', waitSeconds: 1, message: `${phase} already done in this run` };
  }
  const skipped = skippedStep(pinned, 'manifests');
  if (skipped) return skipped;
  const step =
    phase === 'apply'
      ? await applyAll(ports, cluster.id, resources, ports.forCluster(cluster).kube)
      : await deletionPhase(ports, ref, phase, { run, cluster, resources, now });
  if (step.status === 'DONE') {
    await updateRun(ports, ref, (r) => ({
      ...r,
      phase: `ApplyManifests ${phase}`,
      manifestPhases: { ...r.manifestPhases, [phase]: now },
    }));
  }
  return step;
}

/** Kubernetes deletions run once per run; CloudFormation deletions are polled until the stacks are gone. */
async function deletionPhase(
  ports: ApplyPorts,
  ref: RunRef,
  phase: Exclude<ManifestPhase, 'apply'>,
  { run, cluster, resources, now }: Pick<OpenedStep<['resources']>, 'run' | 'cluster' | 'resources' | 'now'>,
): Promise<StepOutput> {
  const pre = phase === 'pre-deletions';
  const k8s = pre ? resources.deletions.preApply : resources.deletions.postApply;
  const cf = pre ? resources.cfDeletions.preApply : resources.cfDeletions.postApply;
  const cp = ports.forCluster(cluster);
  const k8sKey = `${phase}:kubernetes`;
  const firstPass = run.manifestPhases[k8sKey] === undefined;
  const deleted = firstPass ? await runDeletions(cp.kube, k8s, now) : [];
  if (firstPass) await updateRun(ports, ref, (r) => ({ ...r, manifestPhases: { ...r.manifestPhases, [k8sKey]: now } }));
  // cf-deletions.yaml names stacks the config no longer wants; the main stack is never one of them (only
  // decommission lifts its termination protection, so CloudFormation refuses).
  const main = mainStackName(cluster);
  const pending = await deleteStacksPass(
    cp.stacks,
    cf.map((d) => d.stackName),
    (name) => name !== main,
  );
  if (pending.length) {
    return {
      status: 'IN_PROGRESS',
      waitSeconds: 15,
      message: `Deleted ${deleted.length} object(s); waiting for stack deletion: ${pending.join(', ')}`,
    };
  }
  const shown = deleted.length ? `: ${deleted.slice(0, 5).join(', ')}${deleted.length > 5 ? ', …' : ''}` : '';
  return {
    status: 'DONE',
    waitSeconds: 1,
    message: `Deleted ${deleted.length} object(s)${shown}; ${cf.length} stack deletion(s) done`,
  };
}

async function applyAll(
  ports: Pick<Ports, 'progress'>,
  clusterId: string,
  resources: ResourcesArtifact,
  kube: KubeCluster,
): Promise<StepOutput> {
  const counts = { created: 0, configured: 0, unchanged: 0 };
  for (const batch of applyBatches(resources.manifests)) {
    for (const result of await kube.apply(batch, { fieldManager: FIELD_MANAGER })) counts[result.action]++;
  }
  const current = resources.manifests.flatMap((file) => file.objects.map(objectRef));
  const pruned: string[] = [];
  for (const ref of pruneCandidates(await ports.progress.getInventory(clusterId), current)) {
    if ((await kube.delete(ref, { propagationPolicy: 'Background' })) === 'deleted') pruned.push(inventoryKey(ref));
  }
  await ports.progress.putInventory(clusterId, current);
  const prunedList = pruned.length ? ` (${pruned.slice(0, 5).join(', ')})` : '';
  return {
    status: 'DONE',
    waitSeconds: 1,
    message: `Applied ${current.length} object(s): ${counts.created} created, ${counts.configured} configured, ${counts.unchanged} unchanged; pruned ${pruned.length}${prunedList}`,
  };
}

export const task = defineTask({
  name: 'ApplyManifests',
  description: 'Applies manifests and declarative deletions (CloudFormation stacks too)',
  input: clusterUpdatePayload(z.object({ phase: z.enum(MANIFEST_PHASES) })),
  output: StepOutput,
  ports: PORTS,
  lambda: { memoryMb: 1024, timeoutSeconds: 120 },
  step: (payload, ports) => applyManifests(runRef(payload), payload.params.phase, ports),
});
