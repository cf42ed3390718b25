import type { ResourcesArtifact } from '../../contracts/artifacts';
import type { StepOutput } from '../../contracts/cluster-update';
import { inventoryKey, objectRef } from '../../core/manifests/inventory';
import { manifestHealthJobs, manifestHealthTimeoutMs } from '../../core/manifests/manifest-items';
import {
  HEALTH_CHECK_ANNOTATION,
  isHealthChecked,
  objectHealth,
  podProblems,
  type ObjectHealth,
} from '../../core/manifests/workload-health';
import type { ConfigItems } from '../../core/model/cluster';
import { operationWaitSeconds } from '../../core/schedule/operation-wait';
import type { KubeCluster, KubeObject } from '../../ports/kube-cluster';
import { WorkloadsUnhealthyError } from '../../shared/errors';

/** Progress key in the run record's `manifestPhases`: when the health check first found something not healthy yet. */
export const HEALTH_SINCE = 'health:since';
/** Pods of a new workload usually need this long to start (image pull, readiness probe). */
const WORKLOAD_START_MS = 30_000;
/** Objects named in a message. */
const SHOWN = 5;
/** In-process polls: every 10 s, for at most 10 minutes of one invocation (and never past its deadline). */
const IN_PROCESS_POLL_MS = 10_000;
const IN_PROCESS_WAIT_MS = 10 * 60_000;

/** What the health check does besides reading the cluster: record its start, sleep between looks, see its deadline. */
export interface HealthEffects {
  readonly markSince: (at: number) => Promise<unknown>;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
  readonly outOfTime: () => boolean;
}

export interface HealthInput {
  readonly clusterId: string;
  readonly items: ConfigItems;
  readonly resources: ResourcesArtifact;
  readonly phases: Readonly<Record<string, number>>;
  readonly now: number;
}

interface Judged {
  readonly object: KubeObject;
  readonly live?: KubeObject;
  readonly health: ObjectHealth;
}

const shown = (object: KubeObject): string =>
  `${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;

/**
 * The health check after the manifests and the Karpenter pools (kstatus rules, core/manifests/workload-health.ts):
 * one LIST per kind judged (Deployments, StatefulSets, DaemonSets, Jobs, CRDs) each call, nothing written to the
 * cluster. Answers DONE once every checked object is current, IN_PROGRESS (a Wait state, then again) while some are
 * not, and throws WorkloadsUnhealthyError naming them — with their pods' reasons — when a controller gave up or
 * `manifest_health_timeout` passed since the first check (`since`, kept in the run, so a resumed execution keeps the
 * clock and applies nothing again). Between looks it sleeps in process (every 10 s, up to 10 minutes, never past the
 * invocation's deadline), so a rollout of a few minutes costs one call, not a Wait state per look.
 */
export async function awaitHealth(kube: KubeCluster, input: HealthInput, effects: HealthEffects): Promise<StepOutput> {
  const { clusterId, items, resources, phases } = input;
  const timeout = manifestHealthTimeoutMs(items, clusterId);
  const jobs = manifestHealthJobs(items, clusterId);
  const checked = resources.manifests.flatMap((f) => f.objects).filter((o) => isHealthChecked(o, jobs));
  if (timeout === 0 || checked.length === 0)
    return { status: 'DONE', waitSeconds: 1, message: timeout === 0 ? 'Health check off' : 'No workloads to check' };
  const started = input.now;
  let since = phases[HEALTH_SINCE];
  for (let now = input.now; ; now = effects.now()) {
    const judged = await judge(kube, checked);
    const failed = judged.filter((j) => j.health.state === 'failed');
    const waiting = judged.filter((j) => j.health.state === 'in-progress');
    if (!failed.length && !waiting.length)
      return { status: 'DONE', waitSeconds: 1, message: `${checked.length} workload(s) healthy` };
    if (since === undefined) {
      since = now;
      await effects.markSince(now);
    }
    const elapsed = now - since;
    if (failed.length || elapsed >= timeout)
      throw await unhealthy(
        kube,
        clusterId,
        [...failed, ...waiting],
        checked.length,
        failed.length ? undefined : timeout,
      );
    // Short waits are slept here (LISTs only, no state transition) while the invocation has time; then a Wait state.
    const remaining = timeout - elapsed;
    if (effects.outOfTime() || now - started + IN_PROCESS_POLL_MS > IN_PROCESS_WAIT_MS) {
      const wait = Math.min(operationWaitSeconds(since, WORKLOAD_START_MS, now), Math.ceil(remaining / 1000));
      const first = waiting.slice(0, SHOWN).map((j) => `${shown(j.object)} (${j.health.reason})`);
      return {
        status: 'IN_PROGRESS',
        waitSeconds: Math.max(1, wait),
        message: `Waiting for ${waiting.length} of ${checked.length} workload(s) to become healthy (${Math.round(elapsed / 1000)} s of ${formatDuration(timeout)}): ${first.join(', ')}${waiting.length > SHOWN ? ', …' : ''}`,
      };
    }
    await effects.sleep(Math.min(IN_PROCESS_POLL_MS, remaining));
  }
}

/** The error naming the objects that are not healthy, with their pods' reasons. */
async function unhealthy(
  kube: KubeCluster,
  clusterId: string,
  bad: readonly Judged[],
  total: number,
  timeout: number | undefined,
): Promise<WorkloadsUnhealthyError> {
  const why = await Promise.all(bad.slice(0, SHOWN).map((j) => describe(kube, j)));
  const more = bad.length > SHOWN ? `; and ${bad.length - SHOWN} more` : '';
  const when = timeout === undefined ? 'failed' : `not healthy ${formatDuration(timeout)} after the apply`;
  return new WorkloadsUnhealthyError(
    `${bad.length} of ${total} workload(s) ${when}: ${why.join('; ')}${more} (fix them, raise manifest_health_timeout, or annotate an object ${HEALTH_CHECK_ANNOTATION}: "off")`,
    { location: { clusterId } },
  );
}

function formatDuration(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000}m` : `${Math.round(ms / 1000)}s`;
}

/** One LIST per kind, every checked object judged by its live self (absent: not created yet). */
async function judge(kube: KubeCluster, checked: readonly KubeObject[]): Promise<Judged[]> {
  const live = new Map<string, KubeObject>();
  for (const kind of new Set(checked.map((o) => o.kind)))
    for (const object of await kube.list(kind)) live.set(identity(object), object);
  return checked.map((object) => {
    const found = live.get(identity(object, true));
    return {
      object,
      ...(found ? { live: found } : {}),
      health: found ? objectHealth(found) : { state: 'in-progress', reason: 'not found' },
    };
  });
}

/** kind/namespace/name; a rendered namespaced object without a namespace is in `default`. */
function identity(object: KubeObject, rendered = false): string {
  const ref = objectRef(object);
  const clusterScoped = object.kind === 'CustomResourceDefinition';
  const namespace = clusterScoped ? undefined : (ref.namespace ?? (rendered ? 'default' : undefined));
  return inventoryKey({ kind: ref.kind, name: ref.name, ...(namespace ? { namespace } : {}) });
}

/** `Kind ns/name: <status reason> (pods: 3 CrashLoopBackOff)`: the pods listed by the workload's selector. */
async function describe(kube: KubeCluster, judged: Judged): Promise<string> {
  const base = `${shown(judged.object)}: ${judged.health.reason}`;
  const selector = (((judged.live?.spec ?? {}) as Record<string, unknown>).selector ?? {}) as {
    matchLabels?: Record<string, string>;
  };
  const labels = Object.entries(selector.matchLabels ?? {});
  if (!judged.live || !labels.length || judged.object.kind === 'CustomResourceDefinition') return base;
  const pods = await kube.list('Pod', {
    namespace: judged.live.metadata.namespace ?? 'default',
    labelSelector: labels.map(([k, v]) => `${k}=${v}`).join(','),
  });
  const problems = podProblems(pods);
  return problems ? `${base} (pods: ${problems})` : base;
}
