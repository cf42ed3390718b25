import type { RunRecord, StackOperation, StackProgress } from '../../core/model/run';
import { operationWaitSeconds } from '../../core/schedule/operation-wait';
import { expectedStackMs } from '../../core/stacks/stack-durations';
import { describeStackFailure, stackFailureCause } from '../../core/stacks/stack-events';
import { recoveryFor, resourcesToSkip, type RollbackSkips } from '../../core/stacks/stack-recovery';
import { classifyStackStatus } from '../../core/stacks/stack-status';
import type { StackDeployer } from '../../ports/stack-deployer';
import { StackBusyError, StackFailedError, StackRecoveryNeededError } from '../../shared/errors';
import { failure, nextProgress, type StackCheck } from './stack-progress';
import type { StepOutput } from '../../contracts/cluster-update';
import type { RenderedStack } from '../../core/render/render-stack';

/** Poll interval for a stack busy with an operation someone else started, or being recovered (CLM polls every 15 s). */
export const STACK_POLL_SECONDS = 15;

export interface EnsureStacksResult {
  readonly step: StepOutput;
  /** Progress entries to merge into the run record. */
  readonly stacks: Record<string, StackProgress>;
  /**
   * A stack ended where the next execution recovers it (UPDATE_ROLLBACK_FAILED, ROLLBACK_COMPLETE): its progress says
   * `failed`; the caller stores the progress, then throws this.
   */
  readonly failed?: StackFailedError;
  /** Outputs of stacks that finished in this call. */
  readonly outputs: Record<string, Record<string, string>>;
}

export interface EnsureStacksOptions {
  /** Operator-named resources ContinueUpdateRollback may skip, per stack (`--skip-rollback-resources`). */
  readonly rollbackSkips?: RollbackSkips;
}

/**
 * One pass over a set of stacks: start the ones not started, check the ones in progress. `sequential`
 * starts the next stack only when the previous one finished (CLM's cf-manifests); `parallel` starts all
 * (node pools of one group). Finished work in `run.stacks` is never repeated. The next check comes when the
 * first stack waited for should be done: its operation's learned (or typical) duration after it started, then
 * back-off (core/schedule/operation-wait.ts).
 *
 * A stack found in UPDATE_ROLLBACK_FAILED is rolled back (ContinueUpdateRollback) and then deployed; one found in
 * ROLLBACK_COMPLETE is deleted and created again. Each recovery is recorded in the stack's progress with the cause
 * its events name. A create or update this run started that fails is not recovered in the same run: it fails the
 * run with the first failed resource and its reason, and the next run recovers the stack (so a broken template
 * cannot loop).
 */
export async function ensureStacks(
  deployer: StackDeployer,
  stacks: readonly RenderedStack[],
  run: Pick<RunRecord, 'stacks' | 'learnedStackMs'>,
  now: number,
  mode: 'sequential' | 'parallel',
  options: EnsureStacksOptions = {},
): Promise<EnsureStacksResult> {
  const progress: Record<string, StackProgress> = {};
  const outputs: Record<string, Record<string, string>> = {};
  const waiting: string[] = [];
  const waits: number[] = [];
  let done = 0;
  let started = 0;
  for (const stack of stacks) {
    const known = run.stacks[stack.name];
    if (known?.status === 'done') {
      done++;
      continue;
    }
    if (mode === 'sequential' && waiting.length > 0) break;
    const result = await advanceStack(deployer, stack, known, now, options);
    if (result instanceof StackFailedError) {
      // Left where only a recovery helps: recorded as failed, so the next execution of this run recovers it (one
      // recovery per execution: a template that keeps failing cannot loop).
      progress[stack.name] = {
        status: 'failed',
        startedAt: known?.startedAt ?? now,
        ...(known?.recoveries ? { recoveries: known.recoveries } : {}),
      };
      const step: StepOutput = { status: 'IN_PROGRESS', waitSeconds: STACK_POLL_SECONDS, message: result.message };
      return { step, stacks: progress, outputs, failed: result };
    }
    const next = nextProgress(stack.name, known, result, now);
    if (next.progress) progress[stack.name] = next.progress;
    if (next.waiting) {
      waiting.push(next.waiting);
      waits.push(nextCheckSeconds(stack.name, next.progress, run, now));
    }
    if (next.started) started++;
    if (result.finished && !result.recovering) {
      outputs[stack.name] = result.outputs;
      done++;
    }
  }
  const total = stacks.length;
  const step: StepOutput = waiting.length
    ? {
        status: 'IN_PROGRESS',
        waitSeconds: Math.min(...waits),
        message: `${done}/${total} stacks ready; waiting for ${waiting.join(', ')}`,
      }
    : {
        status: 'DONE',
        waitSeconds: 1,
        message: total ? `${total} stack${total === 1 ? '' : 's'} ready` : 'no stacks in this stage',
      };
  return { step: started ? { ...step, started } : step, stacks: progress, outputs };
}

/**
 * When to look at a stack again: a deploy in flight when it should be done (its operation's learned or typical
 * duration after it started, then back-off); a busy or recovering stack at the poll interval.
 */
function nextCheckSeconds(
  name: string,
  progress: StackProgress | undefined,
  run: Pick<RunRecord, 'learnedStackMs'>,
  now: number,
): number {
  if (progress?.status !== 'deploying') return STACK_POLL_SECONDS;
  // A deployer that does not say which operation it started: expect the shorter one, back-off covers a create.
  const operation: StackOperation = progress.operation ?? 'update';
  return operationWaitSeconds(progress.startedAt, expectedStackMs(name, operation, run.learnedStackMs), now);
}

/** One stack's step: start it, check it, or carry its recovery on; a StackFailedError for a state to recover next time. */
async function advanceStack(
  deployer: StackDeployer,
  stack: RenderedStack,
  known: StackProgress | undefined,
  now: number,
  options: EnsureStacksOptions,
): Promise<StackCheck | StackFailedError> {
  try {
    if (known?.status === 'deploying') return await checkStack(deployer, stack.name);
    if (known?.status === 'recovering') return await checkRecovery(deployer, stack, known, now, options);
    return await startStack(deployer, stack, now, options);
  } catch (error) {
    if (error instanceof StackFailedError && recoveryFor(error.status)) return error;
    throw error;
  }
}

async function startRecovery(
  deployer: StackDeployer,
  stack: RenderedStack,
  status: string,
  now: number,
  options: EnsureStacksOptions,
): Promise<StackCheck> {
  const action = recoveryFor(status);
  if (!action) throw new StackFailedError(stack.name, status);
  const cause = stackFailureCause(await deployer.events(stack.name));
  const failed = cause?.failed;
  const base = {
    action,
    foundStatus: status,
    at: now,
    cause: describeStackFailure(cause, `the stack is ${status}`),
    ...(failed
      ? { failedResource: { logicalId: failed.logicalId, resourceType: failed.resourceType, reason: failed.reason } }
      : {}),
  };
  if (action === 'recreate') {
    // ROLLBACK_COMPLETE: the create failed and everything it made is gone; the empty stack only blocks a new create.
    const { result } = await deployer.delete(stack.name, { disableTerminationProtection: true });
    if (result === 'STARTED') return { finished: false, recovering: true, recovery: base, outputs: {} };
    return { ...(await startStack(deployer, stack, now, options, false)), recovery: base };
  }
  const skipped = resourcesToSkip(stack.name, options.rollbackSkips ?? {}, cause?.rollbackFailed ?? []);
  await deployer.continueUpdateRollback(stack.name, skipped);
  return {
    finished: false,
    recovering: true,
    recovery: { ...base, ...(skipped.length ? { skipped } : {}) },
    outputs: {},
  };
}

async function checkRecovery(
  deployer: StackDeployer,
  stack: RenderedStack,
  known: StackProgress,
  now: number,
  options: EnsureStacksOptions,
): Promise<StackCheck> {
  const recovery = known.recoveries?.[known.recoveries.length - 1];
  const state = await deployer.describe(stack.name);
  if (recovery?.action === 'recreate') {
    if (!state || state.status === 'DELETE_COMPLETE') return startStack(deployer, stack, now, options, false);
    if (state.status === 'DELETE_IN_PROGRESS') return { finished: false, recovering: true, outputs: {} };
    if (state.status === 'ROLLBACK_COMPLETE') {
      // Our delete was lost (a killed run after writing `recovering`): delete again.
      const { result } = await deployer.delete(stack.name, { disableTerminationProtection: true });
      return result === 'STARTED'
        ? { finished: false, recovering: true, outputs: {} }
        : startStack(deployer, stack, now, options, false);
    }
    throw await failure(
      deployer,
      stack.name,
      state.status,
      `deleting the stack left by a failed create (${recovery.cause}) ended in ${state.status}`,
    );
  }
  if (!state)
    throw new StackFailedError(stack.name, 'MISSING', 'the stack disappeared while its rollback was being continued');
  const kind = classifyStackStatus(state.status);
  if (kind === 'in-progress') return { finished: false, recovering: true, outputs: {} };
  if (state.status === 'UPDATE_ROLLBACK_COMPLETE') return startStack(deployer, stack, now, options, false);
  if (state.status === 'UPDATE_ROLLBACK_FAILED') {
    const error = await failure(deployer, stack.name, state.status, state.reason);
    throw new StackFailedError(
      stack.name,
      state.status,
      `${error.reason ?? 'the rollback failed again'}; fix the resource by hand, or name it to skip: --skip-rollback-resources ${stack.name}:<LogicalId>`,
    );
  }
  throw await failure(deployer, stack.name, state.status, state.reason);
}

async function startStack(
  deployer: StackDeployer,
  stack: RenderedStack,
  now: number,
  options: EnsureStacksOptions,
  mayRecover = true,
): Promise<StackCheck> {
  let result: 'STARTED' | 'NO_CHANGES';
  let operation: StackOperation | undefined;
  try {
    ({ result, operation } = await deployer.deploy({
      name: stack.name,
      templateBody: stack.template,
      tags: stack.tags,
      ...(stack.stackPolicy ? { stackPolicyBody: stack.stackPolicy } : {}),
    }));
  } catch (error) {
    // A stack busy with an operation is "not done yet", not a failure: ours, when the progress write after
    // starting it was lost (a killed CLI, a Lambda timeout), or someone else's. Retrying the task would not
    // wait long enough for a stack operation; the next pass deploys again and gets STARTED or NO_CHANGES.
    if (error instanceof StackBusyError) return { finished: false, busy: true, outputs: {} };
    if (error instanceof StackRecoveryNeededError) {
      if (!mayRecover) throw await failure(deployer, stack.name, error.status, error.reason);
      return startRecovery(deployer, stack, error.status, now, options);
    }
    throw error;
  }
  if (result === 'STARTED') return { finished: false, outputs: {}, ...(operation ? { operation } : {}) };
  // Nothing to update: the stack must still be healthy (a stack left in UPDATE_ROLLBACK_COMPLETE keeps failing, as CLM).
  const state = await deployer.describe(stack.name);
  if (!state)
    throw new StackFailedError(
      stack.name,
      'MISSING',
      'CloudFormation reported no changes for a stack that does not exist',
    );
  const kind = classifyStackStatus(state.status);
  if (kind === 'failed') {
    const error = await failure(deployer, stack.name, state.status, state.reason);
    throw new StackFailedError(
      stack.name,
      state.status,
      `${error.reason ?? 'the stack is in a failed state'}; the template did not change since`,
    );
  }
  if (kind === 'in-progress') return { finished: false, outputs: {} };
  return { finished: true, noChanges: true, outputs: { ...state.outputs } };
}

async function checkStack(deployer: StackDeployer, name: string): Promise<StackCheck> {
  const state = await deployer.describe(name);
  if (!state)
    throw new StackFailedError(
      name,
      'MISSING',
      'the stack disappeared while it was being deployed (creation failed and was rolled back with OnFailure=DELETE?)',
    );
  const kind = classifyStackStatus(state.status);
  // The create or update this run started failed: the problem names the first failed resource and its reason.
  if (kind === 'failed') throw await failure(deployer, name, state.status, state.reason);
  if (kind === 'in-progress') return { finished: false, outputs: {} };
  if (state.status === 'DELETE_COMPLETE')
    throw new StackFailedError(name, state.status, 'the stack was deleted while it was being deployed');
  return { finished: true, outputs: { ...state.outputs } };
}
