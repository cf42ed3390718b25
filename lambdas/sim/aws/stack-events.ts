/**
 * The simulated stacks' DescribeStackEvents, in CloudFormation's shapes and wording: a stack event (logical id = the
 * stack name, type AWS::CloudFormation::Stack, physical id = the stack id) opens and closes each operation, resource
 * events sit in between, the failed resource carries the handler's message, the others of a failed create read
 * "Resource creation cancelled".
 */
import type { StackEvent } from '../../core/stacks/stack-events';
import { hashOf } from '../hash';
import type { SimContext } from '../sim-context';
import type { StackRecord } from '../world-state';

/** Events a stack keeps (AWS keeps them 90 days; the simulation needs the last few operations). */
export const MAX_STACK_EVENTS = 200;

export const STACK_RESOURCE_TYPE = 'AWS::CloudFormation::Stack';

export function stackEvent(
  ctx: SimContext,
  stack: StackRecord,
  status: string,
  reason?: string,
  resource?: { readonly logicalId: string; readonly type: string; readonly physicalId?: string },
): void {
  const events = (stack.events ??= []);
  const time = new Date(ctx.now).toISOString();
  const unique = hashOf(
    [stack.stackId, String(stack.token), String(events.length), resource?.logicalId ?? '', status],
    32,
  );
  const event: StackEvent = {
    // As CloudFormation: "<LogicalId>-<STATUS>-<time>" for resources, a UUID for the stack's own events.
    eventId: resource
      ? `${resource.logicalId}-${status}-${time}`
      : unique.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
    stackName: stack.name,
    logicalResourceId: resource?.logicalId ?? stack.name,
    ...(resource
      ? resource.physicalId
        ? { physicalResourceId: resource.physicalId }
        : {}
      : { physicalResourceId: stack.stackId }),
    resourceType: resource?.type ?? STACK_RESOURCE_TYPE,
    timestamp: time,
    resourceStatus: status,
    ...(reason ? { resourceStatusReason: reason } : {}),
  };
  events.push(event);
  if (events.length > MAX_STACK_EVENTS) events.splice(0, events.length - MAX_STACK_EVENTS);
}

/** DescribeStackEvents: newest first. */
export function describeStackEvents(stack: StackRecord | undefined): StackEvent[] {
  return [...(stack?.events ?? [])].reverse();
}
