import type { PoolProgress } from '../model/run';
import type { WorkloadRef, WorkloadReadiness } from '../../ports/kube-cluster';
import type { AlarmState } from '../../ports/health-alarms';
import type { RollPlan } from './plan-roll-step';
import type { PoolSnapshot } from './pool-snapshot';

/**
 * The health gate between batches: before a roll cordons the next batch (and before it calls a pool done), the nodes
 * terminated since the last check must have left a healthy pool behind — every new node that joined is Ready, every
 * owner whose pods were evicted from them has all its replicas ready again, and the pool's CloudWatch alarm
 * (`update_health_alarm`), when named, is OK. Otherwise the roll stops at that boundary (drains in flight finish) and
 * says what is unhealthy; it goes on when healthy, and fails with that problem after `update_health_timeout`. The
 * canary's soak ends through the same gate. Pure.
 */

/** `ReplicaSet default/web-7d9f` */
export function workloadKey(ref: WorkloadRef): string {
  return `${ref.kind} ${ref.namespace}/${ref.name}`;
}

export function parseWorkloadKey(key: string): WorkloadRef | undefined {
  const match = /^(\S+) ([^/\s]+)\/(\S+)$/.exec(key);
  return match ? { kind: match[1]!, namespace: match[2]!, name: match[3]! } : undefined;
}

/** Nodes terminated since the last passed check (at or after `gatedAt`): what the next check is about. */
function unchecked(progress: PoolProgress) {
  return Object.values(progress.nodes).filter(
    (n) =>
      n.state === 'terminated' && n.terminatedAt !== undefined && n.terminatedAt >= (progress.gatedAt ?? -Infinity),
  );
}

/** Ready=False reasons of a node that is still starting, or that its controller lost contact with: no verdict yet. */
const ROUTINE_NOT_READY = new Set(['KubeletNotReady', 'NodeStatusUnknown']);

/**
 * New nodes that registered and report why they cannot become Ready, e.g. `FilesBundleUnavailable: files bundle s3://…:
 * AccessDenied: …` from a node whose bootstrap could not fetch or decrypt its files: waiting for them to boot is no use.
 */
export function failedBoots(snapshot: PoolSnapshot): { readonly name: string; readonly reason: string }[] {
  return snapshot.nodes.flatMap((n) => {
    const reason = !n.outdated && n.node && !n.node.ready ? n.node.notReadyReason : undefined;
    return reason && !ROUTINE_NOT_READY.has(reason.split(':')[0]!) ? [{ name: n.node!.name, reason }] : [];
  });
}

/**
 * The gate is due when the step would start a batch (cordon) or end the roll, and nodes went since the last check; and
 * at once when a new node reports that its boot failed (nothing else would stop the roll waiting for it).
 */
export function gateDue(plan: RollPlan, progress: PoolProgress, snapshot?: PoolSnapshot): boolean {
  if (snapshot && failedBoots(snapshot).length > 0) return true;
  if (!plan.done && plan.cordon.length === 0) return false;
  return unchecked(progress).length > 0;
}

/** The owners of the pods evicted from the nodes terminated since the last check. */
export function ownersToCheck(progress: PoolProgress): WorkloadRef[] {
  const keys = new Set(unchecked(progress).flatMap((n) => n.owners ?? []));
  return [...keys]
    .sort()
    .map(parseWorkloadKey)
    .filter((r): r is WorkloadRef => r !== undefined);
}

export interface HealthInputs {
  readonly snapshot: PoolSnapshot;
  /** Readiness of `ownersToCheck` (absent owners were deleted: nothing to wait for). */
  readonly owners: readonly (WorkloadReadiness & { readonly ref: WorkloadRef })[];
  /** The pool's alarm and its state (undefined: no such alarm). */
  readonly alarm?: { readonly name: string; readonly state: AlarmState | undefined };
}

/** What is unhealthy, one readable line each; empty when the pool is healthy. */
export function healthFindings({ snapshot, owners, alarm }: HealthInputs): string[] {
  const findings: string[] = [];
  for (const n of snapshot.nodes)
    if (!n.outdated && n.node && !n.node.ready)
      findings.push(`new node ${n.node.name} is NotReady${n.node.notReadyReason ? ` (${n.node.notReadyReason})` : ''}`);
  for (const o of owners)
    if (o.ready < o.desired) findings.push(`${workloadKey(o.ref)} has ${o.ready}/${o.desired} replicas ready`);
  if (alarm && alarm.state !== 'OK')
    findings.push(
      alarm.state === undefined
        ? `CloudWatch alarm ${alarm.name} does not exist`
        : `CloudWatch alarm ${alarm.name} is ${alarm.state}`,
    );
  return findings;
}

export type GateVerdict =
  | { readonly kind: 'pass' }
  | { readonly kind: 'wait'; readonly since: number; readonly blocked: string }
  | { readonly kind: 'fail'; readonly detail: string };

/** Pass, wait at the boundary (within `timeoutMs` of the first unhealthy check), or fail with what is unhealthy. */
export function gateVerdict(
  findings: readonly string[],
  progress: PoolProgress,
  timeoutMs: number,
  now: number,
): GateVerdict {
  if (findings.length === 0) return { kind: 'pass' };
  const since = progress.unhealthySince ?? now;
  const what = findings.join('; ');
  const waited = Math.round((now - since) / 1000);
  if (now - since > timeoutMs)
    return {
      kind: 'fail',
      detail: `health gate: ${what} (unhealthy for ${waited}s, update_health_timeout ${Math.round(timeoutMs / 1000)}s); the roll stopped at a batch boundary, ${progress.replaced}/${progress.total} nodes replaced`,
    };
  return {
    kind: 'wait',
    since,
    blocked: `health gate: ${what} (waiting ${waited}s of ${Math.round(timeoutMs / 1000)}s)`,
  };
}
