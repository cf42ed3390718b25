import type { KubeObject } from '../../ports/kube-cluster';

/**
 * Whether an applied object became what it was asked to be, in kstatus's terms (Flux's health checks): `current`
 * (rolled out), `in-progress` (the controllers are still working, or have not seen the change yet) or `failed` (they
 * gave up: a Deployment past its progress deadline, a failed Job, a CRD whose names were refused). Only the kinds
 * below are judged; everything else is current once applied.
 */

export type HealthState = 'current' | 'in-progress' | 'failed';

export interface ObjectHealth {
  readonly state: HealthState;
  /** What the status says, e.g. `0/3 available, 3/3 updated` or `ProgressDeadlineExceeded: …`. */
  readonly reason: string;
}

/** An object opts out of the health check with this annotation set to "off". */
export const HEALTH_CHECK_ANNOTATION = 'clm.zalando.org/health-check';

/** The kinds the health check judges (apiVersion group, Kind). */
export const HEALTH_KINDS = [
  { group: 'apps', kind: 'Deployment' },
  { group: 'apps', kind: 'StatefulSet' },
  { group: 'apps', kind: 'DaemonSet' },
  { group: 'batch', kind: 'Job' },
  { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' },
] as const;

/** Config item `manifest_health_jobs`: `wait` (a Job must complete; default) or `ignore` (Jobs are not waited for). */
export type JobPolicy = 'wait' | 'ignore';

type Json = Record<string, unknown>;

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.split('/')[0]! : '');

/** Is this rendered object one the health check waits for (kind judged, not opted out, Jobs per the policy)? */
export function isHealthChecked(object: KubeObject, jobs: JobPolicy): boolean {
  if (object.metadata.annotations?.[HEALTH_CHECK_ANNOTATION] === 'off') return false;
  const group = groupOf(object.apiVersion);
  const judged = HEALTH_KINDS.some((k) => k.kind === object.kind && k.group === group);
  return judged && !(object.kind === 'Job' && jobs === 'ignore');
}

const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

function conditionOf(status: Json, type: string): Json | undefined {
  const list = Array.isArray(status.conditions) ? (status.conditions as Json[]) : [];
  return list.find((c) => c.type === type);
}

/** The controller has not seen the latest spec yet (`status.observedGeneration` < `metadata.generation`). */
function notObserved(live: KubeObject, status: Json): ObjectHealth | undefined {
  const generation = num(live.metadata.generation);
  const observed = status.observedGeneration;
  if (typeof observed !== 'number' || observed < generation)
    return { state: 'in-progress', reason: `generation ${generation} not observed yet` };
  return undefined;
}

function deployment(live: KubeObject, status: Json): ObjectHealth {
  const progressing = conditionOf(status, 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded')
    return { state: 'failed', reason: `ProgressDeadlineExceeded: ${String(progressing.message ?? '')}`.trim() };
  const waiting = notObserved(live, status);
  if (waiting) return waiting;
  const want = typeof (live.spec as Json | undefined)?.replicas === 'number' ? num((live.spec as Json).replicas) : 1;
  const updated = num(status.updatedReplicas);
  const available = num(status.availableReplicas);
  const total = num(status.replicas);
  const reason = `${available}/${want} available, ${updated}/${want} updated${total > updated ? `, ${total - updated} old` : ''}`;
  return { state: updated >= want && available >= want && total <= updated ? 'current' : 'in-progress', reason };
}

function statefulSet(live: KubeObject, status: Json): ObjectHealth {
  const waiting = notObserved(live, status);
  if (waiting) return waiting;
  const spec = (live.spec ?? {}) as Json;
  const want = typeof spec.replicas === 'number' ? spec.replicas : 1;
  const ready = num(status.readyReplicas);
  const updated = num(status.updatedReplicas);
  const onDelete = (spec.updateStrategy as Json | undefined)?.type === 'OnDelete';
  const revisionsMatch = onDelete || status.currentRevision === status.updateRevision;
  const reason = `${ready}/${want} ready, ${updated}/${want} updated`;
  const done = ready >= want && (onDelete || (updated >= want && revisionsMatch));
  return { state: done ? 'current' : 'in-progress', reason };
}

function daemonSet(live: KubeObject, status: Json): ObjectHealth {
  const waiting = notObserved(live, status);
  if (waiting) return waiting;
  const desired = num(status.desiredNumberScheduled);
  const updated = num(status.updatedNumberScheduled);
  const available = num(status.numberAvailable);
  const reason = `${available}/${desired} available, ${updated}/${desired} updated`;
  return { state: updated >= desired && available >= desired ? 'current' : 'in-progress', reason };
}

function job(status: Json): ObjectHealth {
  const failed = conditionOf(status, 'Failed');
  if (failed?.status === 'True')
    return { state: 'failed', reason: `Failed: ${String(failed.reason ?? '')} ${String(failed.message ?? '')}`.trim() };
  if (conditionOf(status, 'Complete')?.status === 'True') return { state: 'current', reason: 'complete' };
  return { state: 'in-progress', reason: `${num(status.succeeded)} succeeded, ${num(status.active)} active` };
}

function crd(status: Json): ObjectHealth {
  const names = conditionOf(status, 'NamesAccepted');
  if (names?.status === 'False')
    return { state: 'failed', reason: `NamesAccepted False: ${String(names.message ?? names.reason ?? '')}` };
  return conditionOf(status, 'Established')?.status === 'True'
    ? { state: 'current', reason: 'established' }
    : { state: 'in-progress', reason: 'not established yet' };
}

/** The live object's health (kstatus rules for the HEALTH_KINDS; any other kind is current). */
export function objectHealth(live: KubeObject): ObjectHealth {
  const status = (live.status ?? {}) as Json;
  switch (live.kind) {
    case 'Deployment':
      return deployment(live, status);
    case 'StatefulSet':
      return statefulSet(live, status);
    case 'DaemonSet':
      return daemonSet(live, status);
    case 'Job':
      return job(status);
    case 'CustomResourceDefinition':
      return crd(status);
    default:
      return { state: 'current', reason: 'applied' };
  }
}

/**
 * Why a workload's pods are not ready, from the pods themselves (at most a few reasons, most frequent first):
 * a waiting container's reason (`CrashLoopBackOff`, `ImagePullBackOff`, …), else `Pending` or `Running, not Ready`.
 */
export function podProblems(pods: readonly KubeObject[]): string {
  const counts = new Map<string, number>();
  for (const pod of pods) {
    const status = (pod.status ?? {}) as Json;
    if (conditionOf(status, 'Ready')?.status === 'True') continue;
    const containers = Array.isArray(status.containerStatuses) ? (status.containerStatuses as Json[]) : [];
    const waiting = containers
      .map((c) => ((c.state as Json | undefined)?.waiting as Json | undefined)?.reason)
      .find((r): r is string => typeof r === 'string');
    const scheduled = conditionOf(status, 'PodScheduled');
    const reason =
      waiting ??
      (scheduled?.status === 'False'
        ? `Unschedulable`
        : status.phase === 'Running'
          ? 'Running, not Ready'
          : String(status.phase ?? 'Pending'));
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 3)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');
}
