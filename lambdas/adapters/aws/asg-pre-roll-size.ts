/**
 * The roll's mark of a group's size before it (core/rollout/pre-roll-size.ts) on Auto Scaling groups: one
 * CreateOrUpdateTags per group not marked yet; at the end one UpdateAutoScalingGroup per group whose bounds the roll
 * widened, and one DeleteTags per marked group.
 */
import {
  CreateOrUpdateTagsCommand,
  DeleteTagsCommand,
  UpdateAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling';
import type { AutoScalingClient, AutoScalingGroup } from '@aws-sdk/client-auto-scaling';
import type { GroupSize, PreRollMark } from '../../ports/node-pool-backend';
import {
  PRE_ROLL_SIZE_TAG,
  formatGroupSize,
  markWith,
  parseGroupSize,
  restoredBounds,
} from '../../core/rollout/pre-roll-size';
import { toClmError } from './aws-errors';

export function sizeOf(group: AutoScalingGroup): GroupSize {
  return { desired: group.DesiredCapacity ?? 0, min: group.MinSize ?? 0, max: group.MaxSize ?? 0 };
}

/** The group's marked size before the roll in progress, if it carries a mark. */
export function preRollOf(group: AutoScalingGroup): PreRollMark | undefined {
  return parseGroupSize(group.Tags?.find((t) => t.Key === PRE_ROLL_SIZE_TAG)?.Value);
}

export async function markPreRollSize(
  client: AutoScalingClient,
  groups: readonly AutoScalingGroup[],
  pairing?: number,
): Promise<void> {
  for (const group of groups) {
    const marked = preRollOf(group);
    if (marked && pairing === undefined) continue;
    const name = group.AutoScalingGroupName ?? '';
    const value = formatGroupSize(markWith(sizeOf(group), marked, pairing));
    if (marked && formatGroupSize(marked) === value) continue;
    const tag = { ResourceId: name, ResourceType: 'auto-scaling-group', Key: PRE_ROLL_SIZE_TAG, Value: value };
    await call(`Auto Scaling CreateOrUpdateTags ${PRE_ROLL_SIZE_TAG}=${value} on ${name}`, () =>
      client.send(new CreateOrUpdateTagsCommand({ Tags: [{ ...tag, PropagateAtLaunch: false }] })),
    );
  }
}

export async function restorePreRollSize(
  client: AutoScalingClient,
  groups: readonly AutoScalingGroup[],
): Promise<void> {
  for (const group of groups) {
    if (!group.Tags?.some((t) => t.Key === PRE_ROLL_SIZE_TAG)) continue;
    const name = group.AutoScalingGroupName ?? '';
    const before = preRollOf(group);
    const now = sizeOf(group);
    const bounds = before ? restoredBounds(now, before) : now;
    if (bounds.min !== now.min || bounds.max !== now.max) {
      await call(`Auto Scaling UpdateAutoScalingGroup ${name}`, () =>
        client.send(
          new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: name, MinSize: bounds.min, MaxSize: bounds.max }),
        ),
      );
    }
    await call(`Auto Scaling DeleteTags ${PRE_ROLL_SIZE_TAG} on ${name}`, () =>
      client.send(
        new DeleteTagsCommand({
          Tags: [{ ResourceId: name, ResourceType: 'auto-scaling-group', Key: PRE_ROLL_SIZE_TAG }],
        }),
      ),
    );
  }
}

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toClmError(error, what);
  }
}
