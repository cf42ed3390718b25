import { ClmError } from '../shared/errors';
import { UsageError } from './io';

/**
 * Run a setup step whose failure is the user's to fix (a bad flag, an unreadable registry, an unknown cluster):
 * it becomes a UsageError (exit 2). Retryable errors (an outage) pass through unchanged: retrying may help.
 */
export function usage<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw asUsage(error);
  }
}

export async function usageAsync<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw asUsage(error);
  }
}

function asUsage(error: unknown): unknown {
  if (error instanceof ClmError && error.retryable) return error;
  return error instanceof Error ? new UsageError(error.message, { cause: error }) : error;
}
