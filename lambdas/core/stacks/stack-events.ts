/**
 * What CloudFormation's stack events say about a failed operation (DescribeStackEvents, newest first). The cause of
 * a failed create or update is the first resource (in time) of the latest user-initiated operation whose status
 * ends in `_FAILED` — later failures of other resources read "Resource creation cancelled" and hide it. For a stack
 * in UPDATE_ROLLBACK_FAILED, the resources that failed during the rollback are the ones ContinueUpdateRollback can
 * be told to skip.
 */

/** One StackEvent of DescribeStackEvents, in the port's words. */
export interface StackEvent {
  readonly eventId: string;
  readonly stackName: string;
  readonly logicalResourceId: string;
  readonly physicalResourceId?: string;
  /** `AWS::CloudFormation::Stack` for the stack's own events. */
  readonly resourceType: string;
  /** ISO 8601. */
  readonly timestamp: string;
  readonly resourceStatus: string;
  readonly resourceStatusReason?: string;
}

/** The resource whose failure made an operation fail (or its rollback fail). */
export interface FailedResource {
  readonly logicalId: string;
  readonly resourceType: string;
  readonly status: string;
  readonly reason: string;
  readonly timestamp: string;
}

/** Why a stack is where it is: the failure of its last operation and, for UPDATE_ROLLBACK_FAILED, of its rollback. */
export interface StackFailureCause {
  /** The first failed resource of the last create or update, when the events name one. */
  readonly failed?: FailedResource;
  /** Resources that failed while rolling back (UPDATE_ROLLBACK_FAILED), first in time first. */
  readonly rollbackFailed: readonly FailedResource[];
  /** The stack's own reason for the state it ended in ("The following resource(s) failed to create: [X]"). */
  readonly stackReason?: string;
}

const STACK_TYPE = 'AWS::CloudFormation::Stack';
/** The stack event that opens an operation a caller started. */
const OPERATION_START: ReadonlySet<string> = new Set([
  'CREATE_IN_PROGRESS',
  'UPDATE_IN_PROGRESS',
  'IMPORT_IN_PROGRESS',
]);
const ROLLBACK_START: ReadonlySet<string> = new Set(['ROLLBACK_IN_PROGRESS', 'UPDATE_ROLLBACK_IN_PROGRESS']);

function isStackEvent(event: StackEvent): boolean {
  return event.resourceType === STACK_TYPE && event.logicalResourceId === event.stackName;
}

function toFailed(event: StackEvent): FailedResource {
  return {
    logicalId: event.logicalResourceId,
    resourceType: event.resourceType,
    status: event.resourceStatus,
    reason: event.resourceStatusReason ?? '(no reason given)',
    timestamp: event.timestamp,
  };
}

/** Oldest first; events with equal timestamps keep CloudFormation's order (it lists newest first). */
function chronological(events: readonly StackEvent[]): StackEvent[] {
  return events
    .map((event, index) => ({ event, index }))
    .sort((a, b) => Date.parse(a.event.timestamp) - Date.parse(b.event.timestamp) || b.index - a.index)
    .map(({ event }) => event);
}

/**
 * The cause of the state a stack's last create or update left it in, from its events (as DescribeStackEvents
 * returns them, newest first; order does not matter). Undefined when the events hold no operation start.
 */
export function stackFailureCause(events: readonly StackEvent[]): StackFailureCause | undefined {
  const ordered = chronological(events);
  let start = -1;
  for (let i = ordered.length - 1; i >= 0; i--) {
    const event = ordered[i];
    if (isStackEvent(event) && OPERATION_START.has(event.resourceStatus)) {
      start = i;
      break;
    }
  }
  if (start < 0) return undefined;
  const operation = ordered.slice(start + 1);
  const rollbackAt = operation.findIndex((e) => isStackEvent(e) && ROLLBACK_START.has(e.resourceStatus));
  const forward = rollbackAt < 0 ? operation : operation.slice(0, rollbackAt);
  const backward = rollbackAt < 0 ? [] : operation.slice(rollbackAt);
  const failedResource = (e: StackEvent) => !isStackEvent(e) && e.resourceStatus.endsWith('_FAILED');
  const first = forward.find(failedResource);
  // A rollback may be continued several times: only the failures after the last (re)start of it count.
  const lastRollbackStart = backward.reduce(
    (at, e, i) => (isStackEvent(e) && ROLLBACK_START.has(e.resourceStatus) ? i : at),
    0,
  );
  const lastStack = [...operation].reverse().find(isStackEvent);
  const rollbackFailed = new Map<string, FailedResource>();
  for (const event of backward.slice(lastRollbackStart))
    if (failedResource(event) && !rollbackFailed.has(event.logicalResourceId))
      rollbackFailed.set(event.logicalResourceId, toFailed(event));
  const stackReason = (lastStack?.resourceStatusReason ?? rollbackStackReason(backward))?.trim();
  return {
    ...(first ? { failed: toFailed(first) } : {}),
    rollbackFailed: [...rollbackFailed.values()],
    ...(stackReason ? { stackReason } : {}),
  };
}

function rollbackStackReason(events: readonly StackEvent[]): string | undefined {
  return events.find((e) => isStackEvent(e) && e.resourceStatusReason)?.resourceStatusReason;
}

/** "LaunchTemplate (AWS::EC2::LaunchTemplate) UPDATE_FAILED: <reason>" */
export function formatFailedResource(resource: FailedResource): string {
  return `${resource.logicalId} (${resource.resourceType}) ${resource.status}: ${resource.reason}`;
}

/**
 * One line for a problem: the first failed resource and its reason, then the rollback's failures, else the
 * stack's own reason, else `fallback`.
 */
export function describeStackFailure(cause: StackFailureCause | undefined, fallback?: string): string {
  const parts: string[] = [];
  if (cause?.failed) parts.push(`first failed resource ${formatFailedResource(cause.failed)}`);
  if (cause?.rollbackFailed.length)
    parts.push(`rollback failed on ${cause.rollbackFailed.map(formatFailedResource).join('; ')}`);
  if (!parts.length) {
    const reason = cause?.stackReason ?? fallback;
    if (reason) parts.push(reason);
  }
  return parts.join('; ');
}
