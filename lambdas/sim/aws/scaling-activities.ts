import { hashOf } from '../hash';
import type { SimContext } from '../sim-context';
import type { LaunchFailure } from '../../ports/node-pool-backend';
import type { AsgRecord } from '../world-state';

/** An Auto Scaling scaling activity, as DescribeScalingActivities lists it (kept on its group: AsgRecord.activities). */
export interface ScalingActivityRecord {
  readonly id: string;
  /** ms since the epoch. */
  readonly at: number;
  readonly statusCode: 'Successful' | 'Failed';
  readonly description: string;
  readonly cause: string;
  readonly statusMessage?: string;
}

/**
 * An Auto Scaling group's scaling activities (DescribeScalingActivities): one per instance it launches, Successful, or
 * Failed with EC2's reason as its StatusMessage (VcpuLimitExceeded, say). The group keeps its latest ACTIVITIES_KEPT.
 */
export const ACTIVITIES_KEPT = 20;

export function recordLaunchActivity(
  ctx: SimContext,
  asg: AsgRecord,
  outcome: { readonly from: number; readonly failure?: string; readonly instanceId?: string },
): void {
  const at = new Date(ctx.now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const change = `increasing the capacity from ${outcome.from} to ${outcome.from + 1}`;
  const activity: ScalingActivityRecord = {
    // Chained on the group's previous activity: unique, and no draw on the world's sequence or PRNG.
    id: hashOf(
      [asg.name, String(ctx.now), outcome.instanceId ?? 'failed', asg.activities?.at(-1)?.id ?? ''],
      32,
    ).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
    at: ctx.now,
    statusCode: outcome.failure ? 'Failed' : 'Successful',
    description: outcome.failure
      ? 'Launching a new EC2 instance.  Status Reason: ' + outcome.failure
      : `Launching a new EC2 instance: ${outcome.instanceId}`,
    cause: `At ${at} an instance was started in response to a difference between desired and actual capacity, ${change}.`,
    ...(outcome.failure ? { statusMessage: `${outcome.failure} Launching EC2 instance failed.` } : {}),
  };
  asg.activities = [...(asg.activities ?? []), activity].slice(-ACTIVITIES_KEPT);
}

/** The group's activities, newest first, as DescribeScalingActivities returns them. */
export function scalingActivities(asg: AsgRecord): ScalingActivityRecord[] {
  return [...(asg.activities ?? [])].reverse();
}

/** The group's newest launch failed while it has fewer than `desired` active instances: the port's launchFailure. */
export function launchFailureOf(asg: AsgRecord, active: number): LaunchFailure | undefined {
  const newest = asg.activities?.at(-1);
  if (active >= asg.desired || newest?.statusCode !== 'Failed') return undefined;
  return { at: newest.at, message: newest.statusMessage ?? newest.description };
}
