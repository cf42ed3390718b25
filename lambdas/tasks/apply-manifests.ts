import { createHash } from 'node:crypto';
import * as z from '../shared/zod';
import { mainStackName } from '../core/cloudformation/stack-names';
import { applyBatches, inventoryKey, objectRef, pruneCandidates } from '../core/manifests/inventory';
import type { ResourcesArtifact } from '../contracts/artifacts';
import { StepOutput } from '../contracts/cluster-update';
import { MANIFEST_PHASES, type ManifestPhase } from '../contracts/status';
import type { ManifestCursor } from '../core/model/run';
import type { KubeCluster, KubeObject } from '../ports/kube-cluster';
import { defineTask, type PortsFor, type TaskContext } from './define-task';
import { skippedStep } from './cluster-stacks/cluster-stack';
import { openStep, type OpenedStep } from './step/open-step';
import { clusterUpdatePayload, runRef } from './step/payloads';
import { updateRun, type RunRef } from './step/run-record';
import { runDeletionsFrom } from './manifests/run-deletions';
import { awaitHealth, HEALTH_SINCE } from './manifests/await-health';
import { deleteStacksPass } from './stacks/stack-deletion';
import { assertNotHeld } from './step/hold-gate';

/** Our field manager for server-side apply. */
export const FIELD_MANAGER = 'clm';

const PORTS = {
  kube: 'write',
  stacks: 'write',
  registry: 'read',
  progress: 'write',
  artifacts: 'read',
  clock: 'read',
} as const;
type ApplyPorts = PortsFor<typeof PORTS>;

/** Objects per server-side apply call: the deadline is checked, and the cursor recorded, between chunks. */
export const APPLY_CHUNK = 25;
/** Objects shown in a message. */
const SHOWN = 5;

/** The recorded cursor `key` if it walks the same list (`of`), else a fresh one. */
function cursorFor(
  cursors: Readonly<Record<string, ManifestCursor>> | undefined,
  key: string,
  list: unknown,
): ManifestCursor {
  const of = createHash('sha256').update(JSON.stringify(list)).digest('hex').slice(0, 16);
  const found = cursors?.[key];
  return found?.of === of ? found : { of, done: 0, counts: {}, shown: [] };
}

/**
 * The apply phase in four states: pre-apply deletions (Kubernetes, then CloudFormation), server-side
 * apply of every manifest (CRDs and Namespaces first, then components in order) with pruning of objects
 * applied last time and no longer rendered, post-apply deletions, and the health check of what was applied
 * (manifests/await-health.ts). The health check follows the post-apply deletions in the same state (`healthFollows`)
 * when the cluster has no Karpenter pools, which saves the two transitions of a state and its Choice on every update;
 * with Karpenter pools it runs after them, in CheckWorkloadHealth.
 *
 * Thousands of objects or hundreds of deletions need not fit in one call: between chunks of objects the step records
 * how far it got (`manifestCursors` in the run) and, once `context.outOfTime()`, returns CONTINUE; the next call
 * starts after the last recorded object. Each call finishes at least one chunk, so every call makes progress.
 */
export async function applyManifests(
  ref: RunRef,
  phase: ManifestPhase,
  ports: ApplyPorts,
  context: TaskContext = { outOfTime: () => false },
  healthFollows = false,
): Promise<StepOutput> {
  const opened = await openStep(ports, ref, { artifacts: ['resources', 'main'] });
  const skipped = skippedStep(opened.pinned, 'manifests');
  if (skipped) return skipped;
  const step = await runPhase(ports, ref, opened, phase, context);
  if (!healthFollows || phase !== 'post-deletions' || step.status !== 'DONE') return step;
  const health = await runPhase(ports, ref, { ...opened, now: ports.clock.now() }, 'health', context);
  const done = opened.run.manifestPhases[phase] !== undefined;
  return done ? health : { ...health, message: `${step.message}; ${health.message}` };
}

/** One phase, once per run: recorded in the run's `manifestPhases` when done. */
async function runPhase(
  ports: ApplyPorts,
  ref: RunRef,
  { run, cluster, resources, main, now }: OpenedStep<['resources', 'main']>,
  phase: ManifestPhase,
  context: TaskContext,
): Promise<StepOutput> {
  if (run.manifestPhases[phase] !== undefined) {
    return { status: 'DONE', waitSeconds: 1, message: `${phase} already done in this run` };
  }
  await assertNotHeld(ports, cluster, `ApplyManifests (${phase})`);
  const kube = ports.forCluster(cluster).kube;
  const step =
    phase === 'apply'
      ? await applyAll(ports, ref, run.manifestCursors ?? {}, resources, kube, context)
      : phase === 'health'
        ? await awaitHealth(
            kube,
            { clusterId: cluster.id, items: main.configItems, resources, phases: run.manifestPhases, now },
            {
              markSince: (at) =>
                updateRun(ports, ref, (r) => ({ ...r, manifestPhases: { ...r.manifestPhases, [HEALTH_SINCE]: at } })),
              sleep: (ms) => ports.clock.sleep(ms),
              now: () => ports.clock.now(),
              outOfTime: context.outOfTime,
            },
          )
        : await deletionPhase(ports, ref, phase, { run, cluster, resources, now }, context);
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
  phase: Exclude<ManifestPhase, 'apply' | 'health'>,
  { run, cluster, resources, now }: Pick<OpenedStep<['resources']>, 'run' | 'cluster' | 'resources' | 'now'>,
  context: TaskContext,
): Promise<StepOutput> {
  const pre = phase === 'pre-deletions';
  const k8s = pre ? resources.deletions.preApply : resources.deletions.postApply;
  const cf = pre ? resources.cfDeletions.preApply : resources.cfDeletions.postApply;
  const cp = ports.forCluster(cluster);
  const k8sKey = `${phase}:kubernetes`;
  let cursor = cursorFor(run.manifestCursors, k8sKey, k8s);
  if (run.manifestPhases[k8sKey] === undefined) {
    const pass = await runDeletionsFrom(cp.kube, k8s, now, { from: cursor.done, outOfTime: context.outOfTime });
    cursor = advance(cursor, pass.next ?? k8s.length, { deleted: pass.deleted.length }, pass.deleted);
    await updateRun(ports, ref, (r) => ({
      ...r,
      manifestCursors: { ...r.manifestCursors, [k8sKey]: cursor },
      ...(pass.next === undefined ? { manifestPhases: { ...r.manifestPhases, [k8sKey]: now } } : {}),
    }));
    if (pass.next !== undefined)
      return {
        status: 'CONTINUE',
        waitSeconds: 1,
        message: `Deleted ${cursor.counts.deleted ?? 0} object(s) so far, ${pass.next} of ${k8s.length} deletion(s) done; continuing`,
      };
  }
  // cf-deletions.yaml names stacks the config no longer wants; the main stack is never one of them (only
  // decommission lifts its termination protection, so CloudFormation refuses).
  const main = mainStackName(cluster);
  const pending = await deleteStacksPass(
    cp.stacks,
    cf.map((d) => d.stackName),
    (name) => name !== main,
  );
  const count = cursor.counts.deleted ?? 0;
  if (pending.length) {
    return {
      status: 'IN_PROGRESS',
      waitSeconds: 15,
      message: `Deleted ${count} object(s); waiting for stack deletion: ${pending.join(', ')}`,
    };
  }
  return {
    status: 'DONE',
    waitSeconds: 1,
    message: `Deleted ${count} object(s)${listed(cursor, count)}; ${cf.length} stack deletion(s) done`,
  };
}

/** The cursor after `done` objects/entries, `counts` added, `names` shown (the first SHOWN of all calls). */
function advance(
  before: ManifestCursor,
  done: number,
  counts: Readonly<Record<string, number>>,
  names: readonly string[],
): ManifestCursor {
  const sum = { ...before.counts };
  for (const [key, n] of Object.entries(counts)) sum[key] = (sum[key] ?? 0) + n;
  return { of: before.of, done, counts: sum, shown: [...before.shown, ...names].slice(0, SHOWN) };
}

function listed(cursor: ManifestCursor, count: number): string {
  return cursor.shown.length ? `: ${cursor.shown.join(', ')}${count > cursor.shown.length ? ', …' : ''}` : '';
}

/**
 * Apply every object in applyBatches order, APPLY_CHUNK at a time (a chunk never spans two batches: CRDs and
 * Namespaces go before what uses them), then prune what the inventory lists and is no longer rendered, then store the
 * new inventory. The cursors `apply` and `prune` are recorded after every chunk and every pruned object.
 */
async function applyAll(
  ports: ApplyPorts,
  ref: RunRef,
  cursors: Readonly<Record<string, ManifestCursor>>,
  resources: ResourcesArtifact,
  kube: KubeCluster,
  context: TaskContext,
): Promise<StepOutput> {
  const total = resources.manifests.reduce((n, file) => n + file.objects.length, 0);
  const batches = applyBatches(resources.manifests);
  let applied = cursorFor(
    cursors,
    'apply',
    batches.flat().map((o) => inventoryKey(objectRef(o))),
  );
  let worked = false;
  const outOfTime = () => worked && context.outOfTime();
  const save = (key: string, c: ManifestCursor) =>
    updateRun(ports, ref, (r) => ({ ...r, manifestCursors: { ...r.manifestCursors, [key]: c } }));
  for (const chunk of chunksAfter(batches, applied.done)) {
    if (outOfTime()) return continuing(`Applied ${applied.done} of ${total} object(s)`);
    const counts: Record<string, number> = {};
    for (const result of await kube.apply(chunk, { fieldManager: FIELD_MANAGER }))
      counts[result.action] = (counts[result.action] ?? 0) + 1;
    applied = advance(applied, applied.done + chunk.length, counts, []);
    await save('apply', applied);
    worked = true;
  }
  const current = resources.manifests.flatMap((file) => file.objects.map(objectRef));
  const candidates = pruneCandidates(await ports.progress.getInventory(ref.clusterId), current);
  let pruned = cursorFor(cursors, 'prune', candidates.map(inventoryKey));
  for (const candidate of candidates.slice(pruned.done)) {
    if (outOfTime()) return continuing(`Applied ${total} object(s), pruned ${pruned.done} of ${candidates.length}`);
    const gone = (await kube.delete(candidate, { propagationPolicy: 'Background' })) === 'deleted';
    pruned = advance(pruned, pruned.done + 1, { deleted: gone ? 1 : 0 }, gone ? [inventoryKey(candidate)] : []);
    await save('prune', pruned);
    worked = true;
  }
  await ports.progress.putInventory(ref.clusterId, current);
  const c = applied.counts;
  const prunedCount = pruned.counts.deleted ?? 0;
  const prunedList = pruned.shown.length ? ` (${pruned.shown.join(', ')})` : '';
  return {
    status: 'DONE',
    waitSeconds: 1,
    message: `Applied ${current.length} object(s): ${c.created ?? 0} created, ${c.configured ?? 0} configured, ${c.unchanged ?? 0} unchanged; pruned ${prunedCount}${prunedList}`,
  };
}

/** The objects after the first `done`, in chunks of at most APPLY_CHUNK within each batch. */
function chunksAfter(batches: readonly (readonly KubeObject[])[], done: number): KubeObject[][] {
  const chunks: KubeObject[][] = [];
  let offset = 0;
  for (const batch of batches) {
    const rest = batch.slice(Math.max(0, done - offset));
    offset += batch.length;
    for (let i = 0; i < rest.length; i += APPLY_CHUNK) chunks.push(rest.slice(i, i + APPLY_CHUNK));
  }
  return chunks;
}

function continuing(progress: string): StepOutput {
  return { status: 'CONTINUE', waitSeconds: 1, message: `${progress}; continuing before the Lambda timeout` };
}

export const task = defineTask({
  name: 'ApplyManifests',
  description: 'Applies manifests and declarative deletions (CloudFormation stacks too), then waits for the workloads',
  input: clusterUpdatePayload(z.object({ phase: z.enum(MANIFEST_PHASES) })),
  output: StepOutput,
  ports: PORTS,
  lambda: { memoryMb: 1024, timeoutSeconds: 120 },
  step: (payload, ports, context) =>
    applyManifests(
      runRef(payload),
      payload.params.phase,
      ports,
      context,
      (payload.state.resources?.karpenterPoolCount ?? 0) === 0,
    ),
});
