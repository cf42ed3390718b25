import { parseCfnTemplate } from '../../core/cloudformation/cfn-yaml';
import type { CfnTemplate } from '../../core/cloudformation/cfn-yaml';
import type { StackChange, StackSpec, StackState } from '../../ports/stack-deployer';
import {
  ClmError,
  StackBusyError,
  StackFailedError,
  StackRecoveryNeededError,
  ValidationError,
} from '../../shared/errors';
import { recoveryFor } from '../../core/stacks/stack-recovery';
import { hashOf, hashValue } from '../hash';
import type { SimContext } from '../sim-context';
import type { AccountState, PendingOperation, StackRecord } from '../world-state';
import { CfnEvalError } from './cfn-intrinsics';
import { deleteAsg } from './autoscaling';
import { deleteResource } from './cfn-resources';
import { applyTemplate, makeScope, parameterValues, section, validateTemplate } from './stack-apply';
import { stackEvent } from './stack-events';
import { begin, completeContinuedRollback, failOperation } from './stack-rollbacks';

export { continueUpdateRollback } from './stack-rollbacks';

/**
 * CloudFormation stacks in one simulated account: create and update take `stackCreateSeconds` /
 * `stackUpdateSeconds` of virtual time, then the resources change; the same template and tags again is
 * NO_CHANGES; a busy stack refuses; termination protection guards deletion; scenario faults make the
 * next create or update of a named stack fail and roll back — a failed create stays in ROLLBACK_COMPLETE
 * (OnFailure=ROLLBACK), a failed update whose rollback fails too ends in UPDATE_ROLLBACK_FAILED until
 * ContinueUpdateRollback. Each operation writes the stack events CloudFormation writes for it (aws/stack-events.ts):
 * the stack's own events always, resource events for the resources that fail and those rolled back.
 */

const FAILED_TO_UPDATE = new Set(['ROLLBACK_FAILED', 'CREATE_FAILED', 'DELETE_FAILED']);

function parseTemplate(spec: Pick<StackSpec, 'name' | 'templateBody'>): CfnTemplate {
  let template: CfnTemplate | undefined;
  try {
    template = parseCfnTemplate(spec.templateBody, `template of stack ${spec.name}`);
  } catch (error) {
    throw new ValidationError(`Template format error: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (!template) throw new ValidationError(`Template format error: the template of stack ${spec.name} is empty`);
  try {
    validateTemplate(template);
    parameterValues(template);
  } catch (error) {
    if (error instanceof CfnEvalError)
      throw new ValidationError(`Stack ${spec.name}: ${error.message}`, { cause: error });
    throw error;
  }
  return template;
}

/** ValidateTemplate: the template's format problems (parameters are not needed to validate). */
export function validateStackTemplate(templateBody: string): string[] {
  try {
    const template = parseCfnTemplate(templateBody, 'template');
    if (!template) return ['Template format error: the template is empty'];
    validateTemplate(template);
    return [];
  } catch (error) {
    return [`Template format error: ${error instanceof Error ? error.message : String(error)}`];
  }
}

function stackId(ctx: SimContext, account: AccountState, name: string): string {
  const h = hashOf([account.key, name, String(ctx.nextSeq())], 32);
  return `arn:aws:cloudformation:${account.region}:${account.accountId}:stack/${name}/${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

type FaultFields = Pick<PendingOperation, 'failReason' | 'failResource' | 'rollbackFailures' | 'rollbackReason'>;

function takeStackFailure(
  ctx: SimContext,
  name: string,
  operation: 'create' | 'update',
  template: CfnTemplate,
): FaultFields {
  const failures = ctx.state.scenario.faults.stackFailures;
  const uses = ctx.state.faultUses.stackFailures;
  const index = failures.findIndex((f, i) => f.stack === name && f.operation === operation && (uses[i] ?? 0) < f.times);
  if (index < 0) return {};
  uses[index] = (uses[index] ?? 0) + 1;
  const fault = failures[index];
  const resource = fault.resource ?? Object.keys(section(template, 'Resources'))[0];
  return {
    failReason: fault.reason,
    ...(resource ? { failResource: resource } : {}),
    ...(operation === 'update' && fault.rollbackFailures > 0
      ? { rollbackFailures: fault.rollbackFailures, rollbackReason: fault.rollbackReason }
      : {}),
  };
}

export function deployStack(ctx: SimContext, account: AccountState, spec: StackSpec): 'STARTED' | 'NO_CHANGES' {
  const template = parseTemplate(spec);
  const templateHash = hashValue([template, spec.tags]);
  const existing = account.stacks[spec.name];
  const protect = spec.terminationProtection ?? true;
  if (existing) {
    if (existing.status.endsWith('_IN_PROGRESS'))
      throw new StackBusyError(`Stack:${existing.stackId} is in ${existing.status} state and can not be updated.`);
    if (recoveryFor(existing.status)) throw new StackRecoveryNeededError(spec.name, existing.status);
    if (FAILED_TO_UPDATE.has(existing.status))
      throw new StackFailedError(
        spec.name,
        existing.status,
        `Stack is in ${existing.status} state and can not be updated`,
      );
    existing.terminationProtection = protect;
    if (existing.templateHash === templateHash) return 'NO_CHANGES';
    existing.status = 'UPDATE_IN_PROGRESS';
    const fault = takeStackFailure(ctx, spec.name, 'update', template);
    begin(
      ctx,
      account,
      existing,
      { operation: 'update', template, templateHash, tags: { ...spec.tags }, ...fault },
      ctx.timings.stackUpdateSeconds,
    );
    stackEvent(ctx, existing, 'UPDATE_IN_PROGRESS', 'User Initiated');
    return 'STARTED';
  }
  const stack: StackRecord = {
    name: spec.name,
    stackId: stackId(ctx, account, spec.name),
    status: 'CREATE_IN_PROGRESS',
    tags: { ...spec.tags },
    terminationProtection: protect,
    templateHash: '',
    resources: {},
    outputs: {},
    lastUpdatedTime: ctx.now,
    token: 0,
  };
  account.stacks[spec.name] = stack;
  const fault = takeStackFailure(ctx, spec.name, 'create', template);
  begin(
    ctx,
    account,
    stack,
    { operation: 'create', template, templateHash, tags: { ...spec.tags }, ...fault },
    ctx.timings.stackCreateSeconds,
  );
  stackEvent(ctx, stack, 'CREATE_IN_PROGRESS', 'User Initiated');
  return 'STARTED';
}

export function setTerminationProtection(account: AccountState, name: string, enabled: boolean): void {
  const stack = account.stacks[name];
  if (stack) stack.terminationProtection = enabled;
}

export function deleteStack(ctx: SimContext, account: AccountState, name: string): 'STARTED' | 'ALREADY_GONE' {
  const stack = account.stacks[name];
  if (!stack) return 'ALREADY_GONE';
  if (stack.status === 'DELETE_IN_PROGRESS') return 'STARTED';
  if (stack.terminationProtection)
    throw new ValidationError(`Stack [${name}] cannot be deleted while TerminationProtection is enabled`);
  if (stack.status.endsWith('_IN_PROGRESS'))
    throw new StackBusyError(`Stack ${name} is in ${stack.status} state and can not be deleted now`);
  stack.status = 'DELETE_IN_PROGRESS';
  stackEvent(ctx, stack, 'DELETE_IN_PROGRESS', 'User Initiated');
  // Auto Scaling groups go first: their instances start shutting down at once.
  for (const record of Object.values(stack.resources))
    if (record.type === 'AWS::AutoScaling::AutoScalingGroup') deleteAsg(ctx, account, record.physicalId);
  begin(ctx, account, stack, { operation: 'delete' }, ctx.timings.stackDeleteSeconds);
  return 'STARTED';
}

/** The stack-done event: the operation started with `token` finishes now. */
export function completeStackOperation(ctx: SimContext, account: AccountState, name: string, token: number): void {
  const stack = account.stacks[name];
  const pending = stack?.pending;
  if (!stack || !pending || stack.token !== token) return;
  stack.pending = undefined;
  if (pending.operation === 'delete') {
    for (const record of Object.values(stack.resources)) deleteResource(ctx, account, record);
    for (const [exportName, exported] of Object.entries(account.exports))
      if (exported.stack === name) delete account.exports[exportName];
    delete account.stacks[name];
    return;
  }
  if (pending.operation === 'continue-rollback') {
    completeContinuedRollback(ctx, stack, pending);
    return;
  }
  if (pending.failReason) {
    failOperation(ctx, stack, pending, pending.failResource, pending.failReason);
    return;
  }
  const snapshot = structuredClone({
    launchTemplates: account.launchTemplates,
    asgs: account.asgs,
    instances: account.instances,
    exports: account.exports,
    ipCounters: account.ipCounters,
  });
  const seqBefore = ctx.state.seq;
  try {
    const applied = applyTemplate(ctx, account, stack, pending.template!, pending.tags ?? {});
    stack.resources = applied.resources;
    stack.outputs = applied.outputs;
    stack.templateHash = pending.templateHash!;
    stack.tags = pending.tags ?? {};
    stack.status = pending.operation === 'create' ? 'CREATE_COMPLETE' : 'UPDATE_COMPLETE';
    if (pending.operation === 'update') stackEvent(ctx, stack, 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS');
    stackEvent(ctx, stack, stack.status);
  } catch (error) {
    if (!(error instanceof CfnEvalError)) throw error;
    Object.assign(account, snapshot);
    ctx.state.events = ctx.state.events.filter((event) => event.seq <= seqBefore);
    failOperation(ctx, stack, pending, error.resource?.logicalId, error.message);
  }
}

export function describeStack(account: AccountState, name: string): StackState | undefined {
  const stack = account.stacks[name];
  if (!stack) return undefined;
  return {
    name: stack.name,
    status: stack.status,
    ...(stack.reason ? { reason: stack.reason } : {}),
    outputs: { ...stack.outputs },
    tags: { ...stack.tags },
    lastUpdatedTime: new Date(stack.lastUpdatedTime).toISOString(),
  };
}

export function listStacks(account: AccountState, tags: Readonly<Record<string, string>>): StackState[] {
  return Object.values(account.stacks)
    .filter((stack) =>
      Object.entries(tags).every(([key, value]) => key in stack.tags && (value === '*' || stack.tags[key] === value)),
    )
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((stack) => describeStack(account, stack.name)!);
}

/** A change-set-like diff per logical id; nothing changes. */
export function planStack(account: AccountState, spec: StackSpec): { exists: boolean; changes: StackChange[] } {
  const template = parseTemplate(spec);
  const stack = account.stacks[spec.name];
  if (stack?.status === 'DELETE_IN_PROGRESS') throw new ClmError(`Stack ${spec.name} is being deleted`);
  const scope = makeScope(account, stack ?? ({ name: spec.name, stackId: '' } as StackRecord), template, {});
  const resources = section(template, 'Resources');
  const changes: StackChange[] = [];
  const kept = new Set<string>();
  for (const [id, definition] of Object.entries(resources)) {
    let included = true;
    try {
      included = typeof definition.Condition !== 'string' || scope.condition(definition.Condition);
    } catch (error) {
      if (!(error instanceof CfnEvalError)) throw error;
    }
    if (!included) continue;
    kept.add(id);
    const previous = stack?.resources[id];
    const type = String(definition.Type);
    if (!previous) changes.push({ action: 'Add', logicalId: id, resourceType: type });
    else if (previous.type !== type)
      changes.push({ action: 'Modify', logicalId: id, resourceType: type, replacement: 'True' });
    else if (previous.defHash !== hashValue(definition))
      changes.push({ action: 'Modify', logicalId: id, resourceType: type, replacement: 'False' });
  }
  for (const [id, record] of Object.entries(stack?.resources ?? {}))
    if (!kept.has(id)) changes.push({ action: 'Remove', logicalId: id, resourceType: record.type });
  return { exists: stack !== undefined, changes };
}
