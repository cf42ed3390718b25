import type { RunRecord, StackOperation, StackProgress } from '../../core/model/run';
import { operationWaitSeconds } from '../../core/schedule/operation-wait';
import { expectedStackMs } from '../../core/stacks/stack-durations';
import { classifyStackStatus } from '../../core/stacks/stack-status';
import type { StackDeployer } from '../../ports/stack-deployer';
import { StackBusyError, StackFailedError } from '../../shared/errors';
import type { StepOutput } from '../../contracts/cluster-update';
import type { RenderedStack } from '../../core/render/render-stack';

/** Poll interval for a stack busy with an operation someone else started (CLM polls every 15 s). */
export const STACK_POLL_SECONDS = 15;

export interface EnsureStacksResult {
  readonly step: StepOutput;
  /** Progress entries to merge into the run record. */
  readonly stacks: Record<string, StackProgress>;
  /** Outputs of stacks that finished in this call. */
  readonly outputs: Record<string, Record<string, string>>;
}

/**
 * One pass over a set of stacks: start the ones not started, check the ones in progress. `sequential`
 * starts the next stack only when the previous one finished (CLM's cf-manifests); `parallel` starts all
 * (node pools of one group). Finished work in `run.stacks` is never repeated. The next check comes when the
 * first stack waited for should be done: its operation's learned (or typical) duration after it started, then
 * back-off (core/schedule/operation-wait.ts).
 */
export async function ensureStacks(
  deployer: StackDeployer,
  stacks: readonly RenderedStack[],
  run: Pick<RunRecord, 'stacks' | 'learnedStackMs'>,
  now: number,
  mode: 'sequential' | 'parallel',
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
    const result =
      known?.status === 'deploying' ? await checkStack(deployer, stack.name) : await startStack(deployer, stack);
    if (result.busy) {
      // Not started: deploy again on the next pass, once the operation running now has ended.
      waiting.push(`${stack.name} (busy)`);
      waits.push(STACK_POLL_SECONDS);
    } else if (result.finished) {
      progress[stack.name] = {
        status: 'done',
        startedAt: known?.startedAt ?? now,
        completedAt: now,
        ...(known?.operation ? { operation: known.operation } : {}),
        ...(result.noChanges ? { noChanges: true } : {}),
      };
      outputs[stack.name] = result.outputs;
      done++;
    } else {
      if (known?.status !== 'deploying') started++;
      const operation = known?.operation ?? result.operation;
      const startedAt = known?.startedAt ?? now;
      progress[stack.name] = { status: 'deploying', startedAt, ...(operation ? { operation } : {}) };
      waiting.push(stack.name);
      // A deployer that does not say which operation it started: expect the shorter one, back-off covers a create.
      waits.push(
        operationWaitSeconds(startedAt, expectedStackMs(stack.name, operation ?? 'update', run.learnedStackMs), now),
      );
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

interface StackCheck {
  readonly finished: boolean;
  /** What a deploy started, when the deployer said. */
  readonly operation?: StackOperation;
  /** Another operation runs on the stack: nothing was started. */
  readonly busy?: boolean;
  readonly noChanges?: boolean;
  readonly outputs: Record<string, string>;
}

async function startStack(deployer: StackDeployer, stack: RenderedStack): Promise<StackCheck> {
  let result: 'STARTED' | 'NO_CHANGES';
  let operation: StackOperation | undefined;
  try {
    ({ result, operation } = await deployer.deploy({
      name: stack.name,
      templateBody: stack.template,
      tags: stack.tags,
    }));
  } catch (error) {
    // A stack busy with an operation is "not done yet", not a failure: ours, when the progress write after
    // starting it was lost (a killed CLI, a Lambda timeout), or someone else's. Retrying the task would not
    // wait long enough for a stack operation; the next pass deploys again and gets STARTED or NO_CHANGES.
    if (error instanceof StackBusyError) return { finished: false, busy: true, outputs: {} };
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
  if (kind === 'failed')
    throw new StackFailedError(
      stack.name,
      state.status,
      state.reason ?? 'the stack is in a failed state and the template did not change',
    );
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
  if (kind === 'failed') throw new StackFailedError(name, state.status, state.reason);
  if (kind === 'in-progress') return { finished: false, outputs: {} };
  if (state.status === 'DELETE_COMPLETE')
    throw new StackFailedError(name, state.status, 'the stack was deleted while it was being deployed');
  return { finished: true, outputs: { ...state.outputs } };
}
