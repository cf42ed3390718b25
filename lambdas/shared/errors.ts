/**
 * Every error the system raises on purpose. Step Functions matches `ErrorEquals` against an error's `name`
 * (Lambda reports it as errorType), so each class sets `name` to the exported constant, and a test ties the
 * ASL's Retry/Catch lists to `RETRYABLE_ERROR_NAMES` / `ERROR_NAMES`.
 *
 * Retryable: the same call may succeed later (throttling, a busy stack, a conflict on a conditional write).
 * Terminal: retrying cannot help until a human or a new config changes something.
 */

import { madeWithRedactedMessage, redactSecrets } from './redact';

export const ERROR_NAMES = {
  ClmError: 'ClmError',
  // retryable
  TransientApiError: 'TransientApiError',
  ThrottledError: 'ThrottledError',
  StackBusyError: 'StackBusyError',
  ConflictError: 'ConflictError',
  RegistryUnavailableError: 'RegistryUnavailableError',
  // terminal
  InvalidTaskInputError: 'InvalidTaskInputError',
  ValidationError: 'ValidationError',
  ConfigError: 'ConfigError',
  TemplateRenderError: 'TemplateRenderError',
  RegistryError: 'RegistryError',
  StackFailedError: 'StackFailedError',
  LeaseHeldError: 'LeaseHeldError',
  NotFoundError: 'NotFoundError',
  KubeApiError: 'KubeApiError',
  RolloutError: 'RolloutError',
  /** Applied workloads did not become healthy within `manifest_health_timeout` (or their controllers gave up). */
  WorkloadsUnhealthyError: 'WorkloadsUnhealthyError',
  /**
   * An operator's pause or abort, or `cluster_update_block`, stops the update at a safe point (StopAtSafePoint): thrown
   * by a step before it writes (tasks/step/hold-gate.ts), and the error a held rollout's Map iteration ends with (a Fail state).
   */
  UpdateHeldError: 'UpdateHeldError',
  /**
   * Not thrown: the error a cluster-update execution stops with when one of its loops reaches its cap (LOOP_CAPS in
   * contracts/status.ts); StopAtSafePoint answers HANDED_OVER and the next run continues from the stored progress.
   */
  UpdateHandedOverError: 'UpdateHandedOverError',
  /** The update waits for `clm approve` (a CLI run ends held; a deployed execution waits on its task token). */
  ApprovalPendingError: 'ApprovalPendingError',
  /** The approval was decided between the review and the wait: the update reviews it again. */
  ApprovalChangedError: 'ApprovalChangedError',
  /** `clm reject` turned the plan down (sent as the task's failure, or found by the review). */
  UpdateRejectedError: 'UpdateRejectedError',
} as const;

export type ErrorName = (typeof ERROR_NAMES)[keyof typeof ERROR_NAMES];

export const RETRYABLE_ERROR_NAMES: readonly ErrorName[] = [
  ERROR_NAMES.TransientApiError,
  ERROR_NAMES.ThrottledError,
  ERROR_NAMES.StackBusyError,
  ERROR_NAMES.ConflictError,
  ERROR_NAMES.RegistryUnavailableError,
];

/** Where in a file something went wrong; rendered as `file:line: field`. */
export interface SourceLocation {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly field?: string;
  readonly clusterId?: string;
}

export class ClmError extends Error {
  override name: ErrorName = ERROR_NAMES.ClmError;
  readonly retryable: boolean = false;
  readonly location?: SourceLocation;
  /** The message without its location prefix (what went wrong, for a caller that names the place itself). */
  readonly problem: string;
  constructor(message: string, options?: ErrorOptions & { location?: SourceLocation }) {
    // Secrets never reach a message (shared/redact.ts): every error of ours is printed, logged or recorded somewhere.
    super(redactSecrets(withLocation(message, options?.location)), options);
    this.location = options?.location;
    this.problem = redactSecrets(message);
    madeWithRedactedMessage(this);
  }
}

function withLocation(message: string, location?: SourceLocation): string {
  if (!location) return message;
  const where = [
    location.clusterId ? `cluster ${location.clusterId}` : undefined,
    location.file
      ? `${location.file}${location.line ? `:${location.line}${location.column ? `:${location.column}` : ''}` : ''}`
      : undefined,
    location.field ? `field ${location.field}` : undefined,
  ].filter(Boolean);
  return where.length ? `${where.join(', ')}: ${message}` : message;
}

abstract class RetryableError extends ClmError {
  override readonly retryable = true;
}

export class TransientApiError extends RetryableError {
  override name = ERROR_NAMES.TransientApiError;
}
export class ThrottledError extends RetryableError {
  override name = ERROR_NAMES.ThrottledError;
}
export class StackBusyError extends RetryableError {
  override name = ERROR_NAMES.StackBusyError;
}
export class RegistryUnavailableError extends RetryableError {
  override name = ERROR_NAMES.RegistryUnavailableError;
}

/** A conditional write lost a race; `current` is what the store holds now, when known. */
export class ConflictError<T = unknown> extends RetryableError {
  override name = ERROR_NAMES.ConflictError;
  readonly current?: T;
  constructor(message: string, options?: ErrorOptions & { current?: T }) {
    super(message, options);
    this.current = options?.current;
  }
}

export class InvalidTaskInputError extends ClmError {
  override name = ERROR_NAMES.InvalidTaskInputError;
}
/** Bad input data (registry entries, flags, deletions files): carries every issue found, not just the first. */
export class ValidationError extends ClmError {
  override name = ERROR_NAMES.ValidationError;
  readonly issues: readonly string[];
  constructor(message: string, options?: ErrorOptions & { location?: SourceLocation; issues?: readonly string[] }) {
    super(options?.issues?.length ? `${message}\n  - ${options.issues.join('\n  - ')}` : message, options);
    this.issues = options?.issues ?? [];
  }
}
export class ConfigError extends ClmError {
  override name = ERROR_NAMES.ConfigError;
}
export class TemplateRenderError extends ClmError {
  override name = ERROR_NAMES.TemplateRenderError;
}
export class RegistryError extends ClmError {
  override name = ERROR_NAMES.RegistryError;
}
export class NotFoundError extends ClmError {
  override name = ERROR_NAMES.NotFoundError;
}
export class KubeApiError extends ClmError {
  override name = ERROR_NAMES.KubeApiError;
}
export class RolloutError extends ClmError {
  override name = ERROR_NAMES.RolloutError;
}
export class WorkloadsUnhealthyError extends ClmError {
  override name = ERROR_NAMES.WorkloadsUnhealthyError;
}

/** The update is held (paused, aborted, `cluster_update_block`): it stops at this safe point, nothing was written. */
export class UpdateHeldError extends ClmError {
  override name = ERROR_NAMES.UpdateHeldError;
}

export class ApprovalPendingError extends ClmError {
  override name = ERROR_NAMES.ApprovalPendingError;
}
export class ApprovalChangedError extends ClmError {
  override name = ERROR_NAMES.ApprovalChangedError;
}
export class UpdateRejectedError extends ClmError {
  override name = ERROR_NAMES.UpdateRejectedError;
}

export class StackFailedError extends ClmError {
  override name = ERROR_NAMES.StackFailedError;
  readonly stackName: string;
  readonly status: string;
  readonly reason?: string;
  constructor(stackName: string, status: string, reason?: string, options?: ErrorOptions) {
    super(`Stack ${stackName} is ${status}${reason ? `: ${reason}` : ''}`, options);
    this.stackName = stackName;
    this.status = status;
    this.reason = reason;
  }
}

/**
 * The stack is where no update can start until it is recovered (UPDATE_ROLLBACK_FAILED, ROLLBACK_COMPLETE; see
 * core/stacks/stack-recovery.ts). Thrown by `StackDeployer.deploy`; a StackFailedError to callers that do not recover.
 */
export class StackRecoveryNeededError extends StackFailedError {
  constructor(stackName: string, status: string, options?: ErrorOptions) {
    super(stackName, status, `Stack is in ${status} state and can not be updated`, options);
  }
}

export class LeaseHeldError extends ClmError {
  override name = ERROR_NAMES.LeaseHeldError;
  readonly holder: string;
  readonly expiresAt: number;
  constructor(clusterId: string, holder: string, expiresAt: number) {
    super(`Cluster ${clusterId} is being updated by ${holder} (lease expires ${new Date(expiresAt).toISOString()})`);
    this.holder = holder;
    this.expiresAt = expiresAt;
  }
}

export function isRetryable(error: unknown): boolean {
  return error instanceof ClmError && error.retryable;
}
