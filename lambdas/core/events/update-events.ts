import { createHash } from 'node:crypto';
import type { UpdateEvent, UpdateEventType } from '../../contracts/update-events';
import type { PoolProgress } from '../model/run';
import { parseBlock } from '../rollout/drain-rules';
import { estimatedRollEnd } from '../rollout/roll-eta';

/** Who sends an update's event: the run (cluster, target version), the execution holding it, and when. */
export interface EventOrigin {
  readonly clusterId: string;
  readonly targetVersion: string;
  /** The lease holder: the cluster-update execution's id (its ARN in Step Functions). */
  readonly holder: string;
  readonly now: number;
}

/**
 * The deterministic id of an event: the same type, run and subject give the same id whenever and however often the
 * step sends it, so consumers can drop repeats (EventBridge's own event id differs on every PutEvents).
 */
export function eventId(type: UpdateEventType, origin: Pick<EventOrigin, 'clusterId' | 'targetVersion'>, subject = '') {
  return createHash('sha256')
    .update(JSON.stringify([type, origin.clusterId, origin.targetVersion, subject]))
    .digest('hex')
    .slice(0, 32);
}

/** The execution's name (an ARN's last segment; a local id as it is) and its ARN when it is one. */
export function executionOf(holder: string): { executionName: string; executionArn?: string } {
  if (!holder.startsWith('arn:')) return { executionName: holder };
  return { executionName: holder.slice(holder.lastIndexOf(':') + 1), executionArn: holder };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The fields every update event has; `subject` tells two events of one type in one run apart. */
function base(type: UpdateEventType, origin: EventOrigin, subject: string) {
  return {
    id: eventId(type, origin, subject),
    clusterId: origin.clusterId,
    targetVersion: origin.targetVersion,
    ...executionOf(origin.holder),
    at: iso(origin.now),
  };
}

type Detail<T extends UpdateEventType> = Extract<UpdateEvent, { type: T }>['detail'];
type Fields<T extends UpdateEventType> = Omit<Detail<T>, keyof ReturnType<typeof base>>;

/** One event per execution: a resumed run's execution announces that it goes on. */
export function updateStarted(origin: EventOrigin, fields: Fields<'UpdateStarted'>): UpdateEvent {
  return { type: 'UpdateStarted', detail: { ...base('UpdateStarted', origin, origin.holder), ...fields } };
}

/** One per plan digest of the run: asking again for the same plan is the same request. */
export function approvalRequested(origin: EventOrigin, fields: Fields<'ApprovalRequested'>): UpdateEvent {
  return { type: 'ApprovalRequested', detail: { ...base('ApprovalRequested', origin, fields.digest), ...fields } };
}

/** One per execution and reason (a window hold, by the window's opening). */
export function held(origin: EventOrigin, fields: Fields<'Held'>): UpdateEvent {
  const subject = `${origin.holder}\u0000${fields.reason}\u0000${fields.resumeAt ?? ''}`;
  return { type: 'Held', detail: { ...base('Held', origin, subject), ...fields } };
}

function poolFields(name: string, progress: PoolProgress) {
  return { pool: name, total: progress.total, replaced: progress.replaced, removal: progress.removal === true };
}

/** One per pool of the run: a resumed roll of the pool is the same roll. */
export function poolRollStarted(origin: EventOrigin, name: string, progress: PoolProgress): UpdateEvent {
  const end = estimatedRollEnd(progress, origin.now);
  return {
    type: 'PoolRollStarted',
    detail: {
      ...base('PoolRollStarted', origin, name),
      ...poolFields(name, progress),
      ...(end !== undefined ? { estimatedEnd: iso(end) } : {}),
    },
  };
}

/** One per pool of the run, once its roll is done. */
export function poolRolled(origin: EventOrigin, name: string, progress: PoolProgress): UpdateEvent {
  const startedAt = progress.startedAt ?? origin.now;
  const end = progress.completedAt ?? origin.now;
  return {
    type: 'PoolRolled',
    detail: {
      ...base('PoolRolled', origin, name),
      ...poolFields(name, progress),
      startedAt: iso(startedAt),
      durationSeconds: Math.max(0, Math.round((end - startedAt) / 1000)),
    },
  };
}

/** One per block of a pool: the same block, held since the same time, is the same event. */
export function drainBlocked(origin: EventOrigin, name: string, progress: PoolProgress): UpdateEvent | undefined {
  if (!progress.blockedBy) return undefined;
  const since = progress.blockedSince ?? origin.now;
  const end = estimatedRollEnd(progress, origin.now);
  const { pod, pdb } = parseBlock(progress.blockedBy);
  return {
    type: 'DrainBlocked',
    detail: {
      ...base('DrainBlocked', origin, `${name}\u0000${progress.blockedBy}\u0000${since}`),
      ...poolFields(name, progress),
      blockedBy: progress.blockedBy,
      ...(pod ? { pod } : {}),
      ...(pdb ? { pdb } : {}),
      since: iso(since),
      ...(end !== undefined ? { estimatedEnd: iso(end) } : {}),
    },
  };
}

/** One per run: it succeeds once. */
export function updateSucceeded(origin: EventOrigin, fields: Fields<'UpdateSucceeded'>): UpdateEvent {
  return { type: 'UpdateSucceeded', detail: { ...base('UpdateSucceeded', origin, ''), ...fields } };
}

/** One per execution: a later execution of the run may fail again, and says so. */
export function updateFailed(origin: EventOrigin, fields: Fields<'UpdateFailed'>): UpdateEvent {
  return { type: 'UpdateFailed', detail: { ...base('UpdateFailed', origin, origin.holder), ...fields } };
}
