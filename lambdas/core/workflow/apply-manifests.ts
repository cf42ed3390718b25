import type { CfDeletion } from '../deletions/deletion';
import { classifyStackStatus } from '../stacks/stack-status';
import type { KubeObject, ObjectRef } from '../../ports/kube-cluster';
import type { StackDeployer } from '../../ports/stack-deployer';
import type { Ports } from '../../ports/ports';
import type { StepOutput } from '../../contracts/cluster-update';
import type { ManifestPhase } from '../../contracts/status';
import { StackFailedError } from '../../shared/errors';
import { getJson, type ResourcesArtifact } from './artifacts';
import { loadRun, loadRunCluster, renewLease, updateRun, type RunRef } from './run-state';
import { runDeletions } from './run-deletions';

/** Our field manager for server-side apply. */
export const FIELD_MANAGER = 'clm';
/** Kinds applied before everything else (Flux/Argo order): their instances may follow in the same run. */
const FIRST_KINDS = new Set(['CustomResourceDefinition', 'Namespace']);
/** Kinds never pruned automatically: losing them loses data. deletions.yaml can still remove them. */
const NEVER_PRUNED = new Set(['Namespace', 'CustomResourceDefinition', 'PersistentVolumeClaim', 'PersistentVolume']);

/**
 * The apply phase in three states: pre-apply deletions (Kubernetes, then CloudFormation), server-side
 * apply of every manifest (CRDs and Namespaces first, then components in order) with pruning of objects
 * applied last time and no longer rendered, and post-apply deletions.
 */
export async function applyManifests(ref: RunRef, phase: ManifestPhase, ports: Ports): Promise<StepOutput> {
  await renewLease(ports, ref);
  const run = await loadRun(ports, ref);
  if (run.manifestPhases[phase] !== undefined)
    return { status: 'DONE', waitSeconds: 1, message: `${phase} already done in this run` };
  const { cluster } = await loadRunCluster(ports, ref);
  const resources = await getJson<ResourcesArtifact>(ports.artifacts, run.artifacts.resources ?? '');
  const cp = ports.forCluster(cluster);
  const now = ports.clock.now();

  let step: StepOutput;
  if (phase === 'apply') {
    step = await applyAll(ports, cluster.id, resources, cp.kube);
  } else {
    const k8s = phase === 'pre-deletions' ? resources.deletions.preApply : resources.deletions.postApply;
    const cf = phase === 'pre-deletions' ? resources.cfDeletions.preApply : resources.cfDeletions.postApply;
    // Kubernetes deletions run once per run; CloudFormation deletions are polled until the stacks are gone.
    const k8sKey = `${phase}:kubernetes`;
    const deleted = run.manifestPhases[k8sKey] === undefined ? await runDeletions(cp.kube, k8s, now) : [];
    if (run.manifestPhases[k8sKey] === undefined)
      await updateRun(ports, ref, (r) => ({ ...r, manifestPhases: { ...r.manifestPhases, [k8sKey]: now } }));
    const pending = await deleteStacks(cp.stacks, cf);
    step = pending.length
      ? {
          status: 'IN_PROGRESS',
          waitSeconds: 15,
          message: `Deleted ${deleted.length} object(s); waiting for stack deletion: ${pending.join(', ')}`,
        }
      : {
          status: 'DONE',
          waitSeconds: 1,
          message: `Deleted ${deleted.length} object(s)${deleted.length ? `: ${deleted.slice(0, 5).join(', ')}${deleted.length > 5 ? ', …' : ''}` : ''}; ${cf.length} stack deletion(s) done`,
        };
  }
  if (step.status === 'DONE') {
    await updateRun(ports, ref, (r) => ({
      ...r,
      phase: `ApplyManifests ${phase}`,
      manifestPhases: { ...r.manifestPhases, [phase]: now },
    }));
  }
  return step;
}

async function applyAll(
  ports: Ports,
  clusterId: string,
  resources: ResourcesArtifact,
  kube: ReturnType<Ports['forCluster']>['kube'],
): Promise<StepOutput> {
  const all = resources.manifests.flatMap((file) => file.objects);
  const first = all.filter((o) => FIRST_KINDS.has(o.kind));
  const counts = { created: 0, configured: 0, unchanged: 0 };
  const tally = (results: readonly { action: keyof typeof counts }[]) => results.forEach((r) => counts[r.action]++);
  if (first.length) tally(await kube.apply(first, { fieldManager: FIELD_MANAGER }));
  for (const file of resources.manifests) {
    const rest = file.objects.filter((o) => !FIRST_KINDS.has(o.kind));
    if (rest.length) tally(await kube.apply(rest, { fieldManager: FIELD_MANAGER }));
  }
  const current = all.map(refOf);
  const previous = await ports.progress.getInventory(clusterId);
  const keep = new Set(current.map(refKey));
  const pruned: string[] = [];
  for (const ref of previous) {
    if (keep.has(refKey(ref)) || NEVER_PRUNED.has(ref.kind)) continue;
    if ((await kube.delete(ref, { propagationPolicy: 'Background' })) === 'deleted') pruned.push(refKey(ref));
  }
  await ports.progress.putInventory(clusterId, current);
  return {
    status: 'DONE',
    waitSeconds: 1,
    message: `Applied ${all.length} object(s): ${counts.created} created, ${counts.configured} configured, ${counts.unchanged} unchanged; pruned ${pruned.length}${pruned.length ? ` (${pruned.slice(0, 5).join(', ')})` : ''}`,
  };
}

/** Start deleting the stacks (termination protection off) and report those not gone yet. */
async function deleteStacks(deployer: StackDeployer, deletions: readonly CfDeletion[]): Promise<string[]> {
  const pending: string[] = [];
  for (const { stackName } of deletions) {
    const state = await deployer.describe(stackName);
    if (!state || state.status === 'DELETE_COMPLETE') continue;
    if (state.status === 'DELETE_FAILED') throw new StackFailedError(stackName, state.status, state.reason);
    if (state.status !== 'DELETE_IN_PROGRESS') {
      if (classifyStackStatus(state.status) === 'in-progress') {
        pending.push(stackName);
        continue;
      }
      const { result } = await deployer.delete(stackName);
      if (result === 'ALREADY_GONE') continue;
    }
    pending.push(stackName);
  }
  return pending;
}

export function refOf(object: KubeObject): ObjectRef {
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    name: object.metadata.name,
    ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
  };
}

function refKey(ref: ObjectRef): string {
  return `${ref.apiVersion ?? ''}/${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}

export { deleteStacks };
