/**
 * Why an Auto Scaling group does not reach its size: its newest launch activity, when it failed (DescribeScalingActivities,
 * a few newest records). Asked only of groups with fewer instances in service or pending than desired, so a pool at its
 * size costs no call.
 */
import { DescribeScalingActivitiesCommand } from '@aws-sdk/client-auto-scaling';
import type { AutoScalingClient, AutoScalingGroup } from '@aws-sdk/client-auto-scaling';
import type { LaunchFailure } from '../../ports/node-pool-backend';
import { toClmError } from './aws-errors';

/** Activities read per short group: the newest launch is among them unless terminations crowd it out. */
const ACTIVITIES_READ = 5;

/** Instances that count towards the group's size: not leaving it. */
function counting(group: AutoScalingGroup): number {
  return (group.Instances ?? []).filter((i) => !/^(Terminat|Detach|Standby)/.test(i.LifecycleState ?? '')).length;
}

export async function launchFailureOf(
  autoScaling: AutoScalingClient,
  group: AutoScalingGroup,
): Promise<LaunchFailure | undefined> {
  const name = group.AutoScalingGroupName ?? '';
  if (counting(group) >= (group.DesiredCapacity ?? 0)) return undefined;
  let out;
  try {
    out = await autoScaling.send(
      new DescribeScalingActivitiesCommand({ AutoScalingGroupName: name, MaxRecords: ACTIVITIES_READ }),
    );
  } catch (error) {
    throw toClmError(error, `Auto Scaling DescribeScalingActivities ${name}`);
  }
  const launch = (out?.Activities ?? []).find((a) => /^Launching/.test(a.Description ?? ''));
  if (launch?.StatusCode !== 'Failed') return undefined;
  return {
    at: launch.StartTime?.getTime() ?? 0,
    message: launch.StatusMessage ?? launch.Description ?? 'the launch failed',
  };
}
