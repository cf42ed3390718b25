import type { PoolProgress } from '../../core/model/run';
import { gateDue, gateVerdict, healthFindings, ownersToCheck, type HealthInputs } from '../../core/rollout/health-gate';
import { holdPlan } from '../../core/rollout/hold-roll';
import type { RollPlan } from '../../core/rollout/plan-roll-step';
import type { PoolSnapshot } from '../../core/rollout/pool-snapshot';
import type { RollPolicy } from '../../core/rollout/roll-policy';
import type { ClusterPorts } from '../../ports/ports';
import { RolloutError } from '../../shared/errors';

export interface HealthCheck {
  readonly plan: RollPlan;
  readonly progress: PoolProgress;
  /** What is unhealthy, when the roll waits at the boundary. */
  readonly blocked?: string;
}

/**
 * The health gate (core/rollout/health-gate.ts) at a batch boundary: asked only when the plan would cordon the next
 * batch or end the roll and nodes went since the last check, so a roll reads the owners and the alarm once per batch;
 * and as soon as a new node reports a failed boot (its files bundle unreadable, say), which no wait would mend.
 * Unhealthy: only the drains in flight go on, until healthy or `update_health_timeout` (then a RolloutError naming
 * what is unhealthy).
 */
export async function checkHealth(
  cp: Pick<ClusterPorts, 'kube' | 'alarms'>,
  policy: RollPolicy,
  snapshot: PoolSnapshot,
  progress: PoolProgress,
  plan: RollPlan,
  now: number,
): Promise<HealthCheck> {
  if (!gateDue(plan, progress, snapshot)) return { plan, progress };
  const owners: HealthInputs['owners'][number][] = [];
  for (const ref of ownersToCheck(progress)) {
    const readiness = await cp.kube.workloadReadiness(ref);
    if (readiness) owners.push({ ...readiness, ref });
  }
  const alarm = policy.healthAlarm
    ? { name: policy.healthAlarm, state: await cp.alarms.alarmState(policy.healthAlarm) }
    : undefined;
  const verdict = gateVerdict(
    healthFindings({ snapshot, owners, ...(alarm ? { alarm } : {}) }),
    progress,
    policy.healthTimeoutMs,
    now,
  );
  if (verdict.kind === 'fail') throw new RolloutError(verdict.detail);
  if (verdict.kind === 'pass') {
    const { unhealthySince: _cleared, ...rest } = progress;
    return { plan, progress: { ...rest, gatedAt: now } };
  }
  return {
    plan: holdPlan(plan).plan,
    progress: { ...progress, unhealthySince: verdict.since },
    blocked: verdict.blocked,
  };
}
