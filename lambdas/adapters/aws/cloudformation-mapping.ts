/** CloudFormation API shapes ↔ the StackDeployer port's records. */
import type { Capability, Change, Stack, StackEvent as SdkStackEvent, Tag } from '@aws-sdk/client-cloudformation';
import type { StackChange, StackEvent, StackState } from '../../ports/stack-deployer';

/** Every stack CLM creates, updates or plans may name IAM resources and use macros. */
export const STACK_CAPABILITIES: readonly Capability[] = ['CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'];

const CHANGE_ACTIONS: ReadonlySet<string> = new Set(['Add', 'Modify', 'Remove', 'Import', 'Dynamic']);

export function toStackState(stack: Stack): StackState {
  const outputs: Record<string, string> = {};
  for (const output of stack.Outputs ?? []) if (output.OutputKey) outputs[output.OutputKey] = output.OutputValue ?? '';
  const tags: Record<string, string> = {};
  for (const tag of stack.Tags ?? []) if (tag.Key) tags[tag.Key] = tag.Value ?? '';
  const last = stack.DeletionTime ?? stack.LastUpdatedTime ?? stack.CreationTime;
  return {
    name: stack.StackName ?? '',
    status: stack.StackStatus ?? 'UNKNOWN',
    ...(stack.StackStatusReason ? { reason: stack.StackStatusReason } : {}),
    outputs,
    tags,
    ...(last ? { lastUpdatedTime: last.toISOString() } : {}),
  };
}

export function toTags(tags: Readonly<Record<string, string>>): Tag[] {
  return Object.keys(tags)
    .sort()
    .map((key) => ({ Key: key, Value: tags[key] }));
}

export function formatTags(tags: Readonly<Record<string, string>>): string {
  return Object.entries(tags)
    .map(([key, value]) => `${key}=${value}`)
    .join(', ');
}

export function toChanges(changes: readonly Change[] | undefined): StackChange[] {
  const result: StackChange[] = [];
  for (const change of changes ?? []) {
    const rc = change.ResourceChange;
    if (change.Type !== 'Resource' || !rc) continue;
    result.push({
      action: (rc.Action && CHANGE_ACTIONS.has(rc.Action) ? rc.Action : 'Dynamic') as StackChange['action'],
      logicalId: rc.LogicalResourceId ?? '',
      resourceType: rc.ResourceType ?? '',
      ...(rc.Replacement ? { replacement: rc.Replacement as StackChange['replacement'] } : {}),
    });
  }
  return result;
}

export function toStackEvent(event: SdkStackEvent): StackEvent {
  return {
    eventId: event.EventId ?? '',
    stackName: event.StackName ?? '',
    logicalResourceId: event.LogicalResourceId ?? '',
    ...(event.PhysicalResourceId ? { physicalResourceId: event.PhysicalResourceId } : {}),
    resourceType: event.ResourceType ?? '',
    timestamp: (event.Timestamp ?? new Date(0)).toISOString(),
    resourceStatus: event.ResourceStatus ?? 'UNKNOWN',
    ...(event.ResourceStatusReason ? { resourceStatusReason: event.ResourceStatusReason } : {}),
  };
}
