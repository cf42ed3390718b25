/** What one pass of ensureStacks makes of a stack: its next progress entry and the problem text of a failed one. */
import type { StackOperation, StackProgress, StackRecoveryRecord } from '../../core/model/run';
import { describeStackFailure, stackFailureCause } from '../../core/stacks/stack-events';
import type { StackDeployer } from '../../ports/stack-deployer';
import { StackFailedError } from '../../shared/errors';

export interface StackCheck {
  readonly finished: boolean;
  /** What a deploy started, when the deployer said (its expected duration differs). */
  readonly operation?: StackOperation;
  /** Another operation runs on the stack: nothing was started. */
  readonly busy?: boolean;
  readonly noChanges?: boolean;
  /** A recovery is running (started now or before). */
  readonly recovering?: boolean;
  /** The recovery this call started. */
  readonly recovery?: StackRecoveryRecord;
  readonly outputs: Record<string, string>;
}

/** "Stack X is S: first failed resource …", from the stack's events. */
export async function failure(
  deployer: StackDeployer,
  name: string,
  status: string,
  fallback?: string,
): Promise<StackFailedError> {
  const cause = stackFailureCause(await deployer.events(name));
  const text = describeStackFailure(cause, fallback);
  const next =
    status === 'UPDATE_ROLLBACK_FAILED'
      ? `; the next run continues the rollback (to skip a resource that cannot roll back: --skip-rollback-resources ${name}:<LogicalId>)`
      : status === 'ROLLBACK_COMPLETE'
        ? '; the next run deletes the stack and creates it again'
        : '';
  return new StackFailedError(name, status, text ? `${text}${next}` : next.replace(/^; /, '') || undefined);
}

function recoveryWaitText(recovery: StackRecoveryRecord | undefined): string {
  if (recovery?.action === 'recreate')
    return `deleting it after a failed create (${recovery.cause}), to create it again`;
  return `continuing its rollback (${recovery?.cause ?? 'UPDATE_ROLLBACK_FAILED'})${recovery?.skipped?.length ? `, skipping ${recovery.skipped.join(', ')}` : ''}`;
}

/** The stack's progress after a step, what it waits for, and whether the step started an operation. */
export function nextProgress(
  name: string,
  known: StackProgress | undefined,
  result: StackCheck,
  now: number,
): { progress?: StackProgress; waiting?: string; started: boolean } {
  const recoveries = [...(known?.recoveries ?? []), ...(result.recovery ? [result.recovery] : [])];
  const recorded = recoveries.length ? { recoveries } : {};
  const startedAt = known?.startedAt ?? now;
  if (result.recovering)
    return {
      progress: { status: 'recovering', startedAt, ...recorded },
      waiting: `${name} (${recoveryWaitText(recoveries[recoveries.length - 1])})`,
      started: known?.status !== 'recovering',
    };
  // Not started: deploy again on the next pass, once the operation running now has ended.
  if (result.busy) return { waiting: `${name} (busy)`, started: false };
  if (result.finished)
    return {
      progress: {
        status: 'done',
        startedAt,
        completedAt: now,
        ...(known?.operation ? { operation: known.operation } : {}),
        ...(result.noChanges ? { noChanges: true } : {}),
        ...recorded,
      },
      started: false,
    };
  const operation = known?.operation ?? result.operation;
  return {
    progress: { status: 'deploying', startedAt, ...(operation ? { operation } : {}), ...recorded },
    waiting: name,
    started: known?.status !== 'deploying',
  };
}
