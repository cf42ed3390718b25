/**
 * Classifies a raw CloudFormation stack status the way CLM's `waitForStack` does (reference/clm-behaviour.md §6.3),
 * extended to the statuses CLM does not list.
 *
 * - succeeded: CREATE_COMPLETE, UPDATE_COMPLETE, DELETE_COMPLETE (CLM), IMPORT_COMPLETE.
 * - failed: CREATE_FAILED, DELETE_FAILED, ROLLBACK_COMPLETE, ROLLBACK_FAILED, UPDATE_ROLLBACK_COMPLETE,
 *   UPDATE_ROLLBACK_FAILED (CLM), UPDATE_FAILED, IMPORT_ROLLBACK_COMPLETE, IMPORT_ROLLBACK_FAILED.
 * - in-progress: every `*_IN_PROGRESS` status, including the cleanup phases and REVIEW_IN_PROGRESS (a stack that
 *   exists only as a change set; it never moves on by itself, so a caller that waits on it must time out).
 *
 * A status CloudFormation may add later is `failed`: waiting on a state we cannot reason about would hang a run.
 */

export type StackStatusClass = 'in-progress' | 'succeeded' | 'failed';

const SUCCEEDED: ReadonlySet<string> = new Set([
  'CREATE_COMPLETE',
  'UPDATE_COMPLETE',
  'DELETE_COMPLETE',
  'IMPORT_COMPLETE',
]);

const FAILED: ReadonlySet<string> = new Set([
  'CREATE_FAILED',
  'DELETE_FAILED',
  'ROLLBACK_COMPLETE',
  'ROLLBACK_FAILED',
  'UPDATE_FAILED',
  'UPDATE_ROLLBACK_COMPLETE',
  'UPDATE_ROLLBACK_FAILED',
  'IMPORT_ROLLBACK_COMPLETE',
  'IMPORT_ROLLBACK_FAILED',
]);

export function classifyStackStatus(status: string): StackStatusClass {
  if (status.endsWith('_IN_PROGRESS')) return 'in-progress';
  if (SUCCEEDED.has(status)) return 'succeeded';
  if (FAILED.has(status)) return 'failed';
  return 'failed';
}

/** True for statuses in which CloudFormation refuses a new update or delete (the stack is busy). */
export function isStackBusy(status: string): boolean {
  return classifyStackStatus(status) === 'in-progress';
}
