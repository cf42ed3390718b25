/**
 * Turns AWS SDK v3 exceptions into the named errors of shared/errors.ts. Raw SDK exceptions never leave an adapter:
 * every `catch` ends in `toClmError(error, '<Service> <Operation> <target>')`, which keeps the SDK error as `cause`.
 *
 * The SDK has already retried (standard mode, see aws-clients.ts) by the time an error reaches us, so a throttling or
 * 5xx error here means "try again later" and is reported as retryable.
 */
import { ClmError, StackBusyError, StackFailedError, ThrottledError, TransientApiError } from '../../shared/errors';

/** The parts of an SDK v3 ServiceException (or a Node network error) we look at. */
interface SdkErrorShape {
  readonly name?: string;
  readonly message?: string;
  readonly code?: string;
  readonly $fault?: 'client' | 'server';
  readonly $metadata?: { readonly httpStatusCode?: number };
  readonly $retryable?: { readonly throttling?: boolean };
}

function shape(error: unknown): SdkErrorShape {
  return typeof error === 'object' && error !== null ? (error as SdkErrorShape) : {};
}

export function awsErrorName(error: unknown): string {
  return shape(error).name ?? 'Error';
}

export function awsErrorMessage(error: unknown): string {
  const message = shape(error).message;
  return typeof message === 'string' ? message : String(error);
}

function httpStatus(error: unknown): number | undefined {
  return shape(error).$metadata?.httpStatusCode;
}

const THROTTLING_NAMES: ReadonlySet<string> = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottled',
  'RequestThrottledException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'SlowDown',
  'ProvisionedThroughputExceededException',
  'BandwidthLimitExceeded',
  'EC2ThrottledException',
  'PriorRequestNotComplete',
]);

export function isThrottlingError(error: unknown): boolean {
  const e = shape(error);
  return THROTTLING_NAMES.has(e.name ?? '') || e.$retryable?.throttling === true || httpStatus(error) === 429;
}

const TRANSIENT_NAMES: ReadonlySet<string> = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'InternalError',
  'InternalFailure',
  'InternalServerError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'Unavailable',
  'NetworkingError',
  'AbortError',
]);

const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ECONNABORTED',
]);

/** 5xx answers, SDK time-outs and network failures. */
export function isTransientError(error: unknown): boolean {
  const e = shape(error);
  const status = httpStatus(error);
  return (
    (status !== undefined && status >= 500) ||
    e.$fault === 'server' ||
    TRANSIENT_NAMES.has(e.name ?? '') ||
    NETWORK_CODES.has(e.code ?? '')
  );
}

const STATE_REFUSAL = /is in ([A-Z_]+) state and can ?not be (?:updated|deleted)/;

/** "Stack:arn:... is in UPDATE_IN_PROGRESS state and can not be updated." (CLM retries exactly this). */
export function isStackBusyError(error: unknown): boolean {
  const match = STATE_REFUSAL.exec(awsErrorMessage(error));
  return match !== null && match[1].endsWith('_IN_PROGRESS');
}

/** The settled state CloudFormation named when it refused an update (ROLLBACK_COMPLETE, ...), if any. */
export function refusedInSettledState(error: unknown): string | undefined {
  const match = STATE_REFUSAL.exec(awsErrorMessage(error));
  return match && !match[1].endsWith('_IN_PROGRESS') ? match[1] : undefined;
}

/** CloudFormation's way of saying a stack (or change set) is not there: a ValidationError "... does not exist". */
export function isStackMissingError(error: unknown): boolean {
  return awsErrorName(error) === 'ValidationError' && /does not exist/i.test(awsErrorMessage(error));
}

export function isNoUpdatesError(error: unknown): boolean {
  return awsErrorName(error) === 'ValidationError' && awsErrorMessage(error).includes('No updates are to be performed');
}

export function isTerminationProtectionError(error: unknown): boolean {
  return awsErrorName(error) === 'ValidationError' && /TerminationProtection is enabled/i.test(awsErrorMessage(error));
}

const ACCESS_DENIED: ReadonlySet<string> = new Set([
  'AccessDenied',
  'AccessDeniedException',
  'UnauthorizedOperation',
  'UnrecognizedClientException',
  'InvalidClientTokenId',
  'ExpiredToken',
  'ExpiredTokenException',
  'AuthFailure',
]);

/**
 * Map any error from an SDK call to a ClmError. `what` names the call and its target, e.g.
 * `CloudFormation UpdateStack nodepool-default-worker-aws-123`; it leads the message.
 * Errors that already are ClmErrors pass through unchanged.
 */
export function toClmError(error: unknown, what: string, stackName?: string): ClmError {
  if (error instanceof ClmError) return error;
  const detail = `${awsErrorName(error)}: ${awsErrorMessage(error)}`;
  const options = { cause: error };
  if (isThrottlingError(error)) return new ThrottledError(`${what}: throttled by AWS (${detail})`, options);
  if (isStackBusyError(error)) return new StackBusyError(`${what}: the stack is busy (${detail})`, options);
  const settled = refusedInSettledState(error);
  if (settled && stackName)
    return new StackFailedError(stackName, settled, `${what} refused: ${awsErrorMessage(error)}`, options);
  if (isTransientError(error))
    return new TransientApiError(`${what}: AWS did not answer properly (${detail})`, options);
  if (ACCESS_DENIED.has(awsErrorName(error))) {
    return new ClmError(
      `${what}: ${detail} (check the credentials and the role assumed in the cluster's account)`,
      options,
    );
  }
  return new ClmError(`${what}: ${detail}`, options);
}
