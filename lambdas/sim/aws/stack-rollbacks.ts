/**
 * How simulated stack operations start, fail and roll back, with the events CloudFormation writes for each: a create
 * that fails on a resource cancels the one in flight and rolls back to ROLLBACK_COMPLETE; an update that fails rolls
 * back to UPDATE_ROLLBACK_COMPLETE, or to UPDATE_ROLLBACK_FAILED when the scenario makes the rollback fail too, until
 * ContinueUpdateRollback succeeds or skips the resource.
 */
import type { CfnTemplate } from '../../core/cloudformation/cfn-yaml';
import { ValidationError } from '../../shared/errors';
import type { SimContext } from '../sim-context';
import type { AccountState, PendingOperation, StackRecord } from '../world-state';
import { section } from './stack-apply';
import { stackEvent } from './stack-events';

/** Starts an operation on the stack: it finishes `seconds` of virtual time later (the stack-done event). */
export function begin(
  ctx: SimContext,
  account: AccountState,
  stack: StackRecord,
  pending: NonNullable<StackRecord['pending']>,
  seconds: number,
): void {
  stack.token += 1;
  stack.pending = pending;
  stack.lastUpdatedTime = ctx.now;
  stack.reason = undefined;
  ctx.schedule(seconds, { type: 'stack-done', account: account.key, stack: stack.name, token: stack.token });
}

/**
 * ContinueUpdateRollback: only from UPDATE_ROLLBACK_FAILED, and only resources that failed in the rollback may be
 * skipped (CloudFormation's ValidationErrors otherwise).
 */
export function continueUpdateRollback(
  ctx: SimContext,
  account: AccountState,
  name: string,
  resourcesToSkip: readonly string[],
): void {
  const stack = account.stacks[name];
  if (!stack) throw new ValidationError(`Stack [${name}] does not exist`);
  if (stack.status !== 'UPDATE_ROLLBACK_FAILED')
    throw new ValidationError(
      `Stack [${stack.stackId}] is in ${stack.status} state and can not be continued rollback. Only stacks in UPDATE_ROLLBACK_FAILED state can be continued rollback.`,
    );
  const failing = stack.rollbackFailure?.logicalId;
  const wrong = resourcesToSkip.filter((id) => id !== failing);
  if (wrong.length)
    throw new ValidationError(
      `Resources [${wrong.join(', ')}] cannot be skipped: only resources in UPDATE_FAILED state can be skipped`,
    );
  stack.status = 'UPDATE_ROLLBACK_IN_PROGRESS';
  begin(
    ctx,
    account,
    stack,
    { operation: 'continue-rollback', skip: [...resourcesToSkip] },
    ctx.timings.stackUpdateSeconds,
  );
  stackEvent(ctx, stack, 'UPDATE_ROLLBACK_IN_PROGRESS', 'User Initiated');
}

function resourceOf(template: CfnTemplate | undefined, stack: StackRecord, logicalId: string) {
  const type =
    stack.resources[logicalId]?.type ??
    (template ? String(section(template, 'Resources')[logicalId]?.Type ?? '') : '') ??
    '';
  return {
    logicalId,
    type: type || 'AWS::CloudFormation::CustomResource',
    ...(stack.resources[logicalId] ? { physicalId: stack.resources[logicalId].physicalId } : {}),
  };
}

/** A create or update that fails on `logicalId`: the events of the failure and of the rollback. */
export function failOperation(
  ctx: SimContext,
  stack: StackRecord,
  pending: PendingOperation,
  logicalId: string | undefined,
  reason: string,
): void {
  const create = pending.operation === 'create';
  const failed = logicalId ? resourceOf(pending.template, stack, logicalId) : undefined;
  const verb = create ? 'CREATE' : 'UPDATE';
  const cancelled: ReturnType<typeof resourceOf>[] = [];
  if (failed) {
    stackEvent(ctx, stack, `${verb}_IN_PROGRESS`, undefined, failed);
    // A resource CloudFormation worked on at the same time is cancelled after the real failure.
    // The next resource of the template (a conditional one may not exist: never one with a Condition).
    const resources = create ? section(pending.template!, 'Resources') : {};
    const ids = Object.keys(resources);
    const other = ids.slice(ids.indexOf(failed.logicalId) + 1).find((id) => resources[id]?.Condition === undefined);
    if (other) {
      cancelled.push(resourceOf(pending.template, stack, other));
      stackEvent(ctx, stack, 'CREATE_IN_PROGRESS', undefined, cancelled[0]);
    }
    stackEvent(ctx, stack, `${verb}_FAILED`, reason, failed);
    for (const resource of cancelled) stackEvent(ctx, stack, 'CREATE_FAILED', 'Resource creation cancelled', resource);
  }
  const names = [failed, ...cancelled].filter((r) => r !== undefined).map((r) => r.logicalId);
  const stackReason = names.length
    ? `The following resource(s) failed to ${create ? 'create' : 'update'}: [${names.join(', ')}]. ${create ? 'Rollback requested by user.' : ''}`.trim()
    : reason;
  if (create) {
    stack.status = 'ROLLBACK_COMPLETE';
    stack.reason = stackReason;
    stackEvent(ctx, stack, 'ROLLBACK_IN_PROGRESS', stackReason);
    for (const resource of [failed, ...cancelled])
      if (resource) stackEvent(ctx, stack, 'DELETE_COMPLETE', undefined, resource);
    stackEvent(ctx, stack, 'ROLLBACK_COMPLETE');
    return;
  }
  stackEvent(ctx, stack, 'UPDATE_ROLLBACK_IN_PROGRESS', stackReason);
  if (failed) stackEvent(ctx, stack, 'UPDATE_IN_PROGRESS', undefined, failed);
  if (failed && (pending.rollbackFailures ?? 0) > 0) {
    const rollbackReason = pending.rollbackReason ?? 'Simulated failure while rolling back';
    stack.rollbackFailure = {
      logicalId: failed.logicalId,
      reason: rollbackReason,
      left: pending.rollbackFailures! - 1,
    };
    rollbackFails(ctx, stack);
    return;
  }
  if (failed) stackEvent(ctx, stack, 'UPDATE_COMPLETE', undefined, failed);
  finishRollback(ctx, stack, stackReason);
}

function rollbackFails(ctx: SimContext, stack: StackRecord): void {
  const failure = stack.rollbackFailure!;
  const resource = resourceOf(undefined, stack, failure.logicalId);
  stackEvent(ctx, stack, 'UPDATE_FAILED', failure.reason, resource);
  stack.status = 'UPDATE_ROLLBACK_FAILED';
  stack.reason = `The following resource(s) failed to update: [${failure.logicalId}].`;
  stackEvent(ctx, stack, 'UPDATE_ROLLBACK_FAILED', stack.reason);
}

function finishRollback(ctx: SimContext, stack: StackRecord, reason: string | undefined): void {
  stackEvent(ctx, stack, 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS');
  stack.status = 'UPDATE_ROLLBACK_COMPLETE';
  stack.reason = reason;
  stackEvent(ctx, stack, 'UPDATE_ROLLBACK_COMPLETE');
}

/** The stack-done event of a ContinueUpdateRollback. */
export function completeContinuedRollback(ctx: SimContext, stack: StackRecord, pending: PendingOperation): void {
  const failure = stack.rollbackFailure;
  if (failure && !pending.skip?.includes(failure.logicalId) && failure.left > 0) {
    failure.left -= 1;
    stackEvent(ctx, stack, 'UPDATE_IN_PROGRESS', undefined, resourceOf(undefined, stack, failure.logicalId));
    rollbackFails(ctx, stack);
    return;
  }
  if (failure)
    stackEvent(
      ctx,
      stack,
      'UPDATE_COMPLETE',
      pending.skip?.includes(failure.logicalId) ? 'Resource skipped during UpdateRollback' : undefined,
      resourceOf(undefined, stack, failure.logicalId),
    );
  stack.rollbackFailure = undefined;
  finishRollback(ctx, stack, undefined);
}
