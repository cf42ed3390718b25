import type {
  StackChange,
  StackDeployer,
  StackEvent,
  StackSpec,
  StackState,
} from '../../../lambdas/ports/stack-deployer';
import { recoveryFor } from '../../../lambdas/core/stacks/stack-recovery';
import { StackBusyError, StackRecoveryNeededError } from '../../../lambdas/shared/errors';

interface FakeStack {
  template: string;
  tags: Record<string, string>;
  status: string;
  reason?: string;
  pollsLeft: number;
  outputs: Record<string, string>;
  /** Set by `failNext`: where the running operation ends. */
  failWith?: { status: string; reason: string };
  terminationProtection?: boolean;
}

/**
 * CloudFormation with state: a deploy puts the stack IN_PROGRESS, it completes after `pollsToComplete`
 * describes; an identical template is NO_CHANGES; `failNext` makes the next operation end in a failure status.
 */
export class FakeStackDeployer implements StackDeployer {
  readonly stacks = new Map<string, FakeStack>();
  readonly deploys: string[] = [];
  /** Every call that changes a stack, in order: `deploy kube-1`, `delete kube-1 (lift protection)`, ... */
  readonly calls: string[] = [];
  /** DescribeStackEvents per stack, newest first (`setEvents`). */
  readonly stackEvents = new Map<string, StackEvent[]>();
  /** Where a continued rollback ends (default UPDATE_ROLLBACK_COMPLETE). */
  continueRollbackEndsIn = 'UPDATE_ROLLBACK_COMPLETE';
  private readonly failures = new Map<string, { status: string; reason: string }>();
  private readonly outputs = new Map<string, Record<string, string>>();

  constructor(private readonly pollsToComplete = 2) {}

  /** Outputs a stack has once its create/update completes. */
  setOutputs(name: string, outputs: Record<string, string>): void {
    this.outputs.set(name, outputs);
  }

  failNext(name: string, status: string, reason: string): void {
    this.failures.set(name, { status, reason });
  }

  /** Put an existing stack in any state (e.g. UPDATE_ROLLBACK_COMPLETE). */
  setStack(name: string, template: string, status: string, reason?: string): void {
    this.stacks.set(name, {
      template,
      tags: {},
      status,
      pollsLeft: 0,
      outputs: this.outputs.get(name) ?? {},
      ...(reason ? { reason } : {}),
    });
  }

  setEvents(name: string, events: StackEvent[]): void {
    this.stackEvents.set(name, events);
  }

  setTerminationProtection(name: string, enabled: boolean): void {
    const stack = this.stacks.get(name);
    if (stack) stack.terminationProtection = enabled;
  }

  async events(name: string): Promise<StackEvent[]> {
    return [...(this.stackEvents.get(name) ?? [])];
  }

  async continueUpdateRollback(name: string, resourcesToSkip: readonly string[]): Promise<void> {
    const stack = this.stacks.get(name);
    if (stack?.status !== 'UPDATE_ROLLBACK_FAILED') throw new Error(`Stack ${name} is not in UPDATE_ROLLBACK_FAILED`);
    this.calls.push(`continueUpdateRollback ${name} [${resourcesToSkip.join(', ')}]`);
    stack.status = 'UPDATE_ROLLBACK_IN_PROGRESS';
    stack.pollsLeft = this.pollsToComplete;
    stack.failWith = { status: this.continueRollbackEndsIn, reason: '' };
  }

  async deploy(spec: StackSpec): Promise<{ readonly result: 'STARTED' | 'NO_CHANGES' }> {
    const found = this.stacks.get(spec.name);
    const existing = found?.status === 'DELETE_COMPLETE' ? undefined : found;
    if (existing && existing.status.endsWith('_IN_PROGRESS'))
      throw new StackBusyError(`Stack ${spec.name} is ${existing.status}`);
    if (existing && recoveryFor(existing.status)) throw new StackRecoveryNeededError(spec.name, existing.status);
    this.calls.push(`deploy ${spec.name}`);
    if (existing && existing.template === spec.templateBody) return { result: 'NO_CHANGES' };
    this.deploys.push(spec.name);
    const failWith = this.failures.get(spec.name);
    this.failures.delete(spec.name);
    this.stacks.set(spec.name, {
      template: spec.templateBody,
      tags: { ...spec.tags },
      status: existing ? 'UPDATE_IN_PROGRESS' : 'CREATE_IN_PROGRESS',
      pollsLeft: this.pollsToComplete,
      outputs: existing?.outputs ?? {},
      terminationProtection: spec.terminationProtection ?? true,
      ...(failWith ? { failWith } : {}),
    });
    return { result: 'STARTED' };
  }

  async describe(name: string): Promise<StackState | undefined> {
    const stack = this.stacks.get(name);
    if (!stack) return undefined;
    if (stack.status.endsWith('_IN_PROGRESS')) {
      stack.pollsLeft--;
      if (stack.pollsLeft <= 0) this.complete(stack);
    }
    return {
      name,
      status: stack.status,
      outputs: { ...stack.outputs },
      tags: { ...stack.tags },
      ...(stack.reason ? { reason: stack.reason } : {}),
    };
  }

  private complete(stack: FakeStack): void {
    if (stack.failWith) {
      stack.status = stack.failWith.status;
      if (stack.failWith.reason) stack.reason = stack.failWith.reason;
      else delete stack.reason;
      delete stack.failWith;
      return;
    }
    stack.status = stack.status.startsWith('CREATE')
      ? 'CREATE_COMPLETE'
      : stack.status.startsWith('DELETE')
        ? 'DELETE_COMPLETE'
        : 'UPDATE_COMPLETE';
    const key = [...this.stacks.entries()].find(([, s]) => s === stack)?.[0];
    if (key && this.outputs.has(key)) stack.outputs = { ...this.outputs.get(key)! };
    delete stack.reason;
  }

  async delete(
    name: string,
    options?: { readonly disableTerminationProtection?: boolean },
  ): Promise<{ readonly result: 'STARTED' | 'ALREADY_GONE' }> {
    const stack = this.stacks.get(name);
    if (!stack || stack.status === 'DELETE_COMPLETE') return { result: 'ALREADY_GONE' };
    if (stack.terminationProtection && !options?.disableTerminationProtection)
      throw new Error(`Stack [${name}] cannot be deleted while TerminationProtection is enabled`);
    if (stack.terminationProtection) {
      this.calls.push(`disableTerminationProtection ${name}`);
      stack.terminationProtection = false;
    }
    this.calls.push(`delete ${name}`);
    stack.status = 'DELETE_IN_PROGRESS';
    stack.pollsLeft = this.pollsToComplete;
    return { result: 'STARTED' };
  }

  async list(tags: Readonly<Record<string, string>>): Promise<StackState[]> {
    const all = [...this.stacks.entries()].filter(([, s]) =>
      Object.entries(tags).every(([k, v]) => s.tags[k] !== undefined && (v === '*' || s.tags[k] === v)),
    );
    return all.map(([name, s]) => ({ name, status: s.status, outputs: { ...s.outputs }, tags: { ...s.tags } }));
  }

  /** Templates handed to validate, and the problems to answer for a template containing a key of `invalid`. */
  readonly validated: string[] = [];
  invalid: Record<string, string> = {};

  async validate(templateBody: string): Promise<readonly string[]> {
    this.validated.push(templateBody);
    return Object.entries(this.invalid)
      .filter(([needle]) => templateBody.includes(needle))
      .map(([, problem]) => problem);
  }

  async plan(spec: StackSpec): Promise<{ readonly exists: boolean; readonly changes: readonly StackChange[] }> {
    const existing = this.stacks.get(spec.name);
    return {
      exists: existing !== undefined,
      changes:
        existing?.template === spec.templateBody
          ? []
          : [{ action: existing ? 'Modify' : 'Add', logicalId: 'Stack', resourceType: 'AWS::CloudFormation::Stack' }],
    };
  }
}
