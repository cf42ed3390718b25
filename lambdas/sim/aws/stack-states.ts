/** Stack states in which the stack's resources are up and serving (created, or being updated or rolled back). */
export const SERVING_STACK_STATES: ReadonlySet<string> = new Set([
  'CREATE_COMPLETE',
  'UPDATE_IN_PROGRESS',
  'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
  'UPDATE_COMPLETE',
  'UPDATE_ROLLBACK_IN_PROGRESS',
  'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
  'UPDATE_ROLLBACK_COMPLETE',
]);

/** Stack states in which a created resource still exists (serving, or a failed rollback, or being deleted). */
export const EXISTING_STACK_STATES: ReadonlySet<string> = new Set([
  ...SERVING_STACK_STATES,
  'UPDATE_ROLLBACK_FAILED',
  'DELETE_IN_PROGRESS',
  'DELETE_FAILED',
]);
