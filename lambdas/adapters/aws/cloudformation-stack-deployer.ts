/**
 * StackDeployer on CloudFormation, following CLM's `applyStack`/`deleteStack` (reference/clm-behaviour.md §6.3).
 * It starts operations and returns; waiting is the caller's loop (describe + core/stacks/stack-status.ts).
 *
 * Calls per operation (AWS): deploy = DescribeStacks + CreateStack | UpdateStack (+ UpdateTerminationProtection only
 * when the stack's flag differs); delete = DescribeStacks + DeleteStack (+ UpdateTerminationProtection and a second
 * DeleteStack when the stack is protected and the caller asked to lift it); events = n×DescribeStackEvents (back to the start
 * of the last create or update); continueUpdateRollback = ContinueUpdateRollback; plan = DescribeStacks +
 * CreateChangeSet + n×DescribeChangeSet + one cleanup call.
 *
 * Deviations from CLM, on purpose: a failed create stays in ROLLBACK_COMPLETE (OnFailure=ROLLBACK, CLM: DELETE), so
 * its events name the resource that failed; the next deploy deletes and re-creates it (core/stacks/stack-recovery.ts).
 * Delete lifts termination protection only when its caller says so (decommission, the removal of a pool, a
 * ROLLBACK_COMPLETE stack being re-created); a protected stack is otherwise refused, as CloudFormation refuses it.
 */
import {
  ContinueUpdateRollbackCommand,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  UpdateStackCommand,
  UpdateTerminationProtectionCommand,
  paginateDescribeStacks,
} from '@aws-sdk/client-cloudformation';
import type { CloudFormationClient, Stack } from '@aws-sdk/client-cloudformation';
import type { ArtifactStore } from '../../ports/artifact-store';
import type { StackChange, StackDeployer, StackEvent, StackSpec, StackState } from '../../ports/stack-deployer';
import { isStackBusy } from '../../core/stacks/stack-status';
import { recoveryFor } from '../../core/stacks/stack-recovery';
import { ClmError, StackBusyError, StackRecoveryNeededError } from '../../shared/errors';
import {
  awsErrorName,
  isNoUpdatesError,
  isStackMissingError,
  isTerminationProtectionError,
  toClmError,
} from './aws-errors';
import { CloudFormationChangeSets } from './cloudformation-change-sets';
import { STACK_CAPABILITIES, formatTags, toStackEvent, toStackState, toTags } from './cloudformation-mapping';
import { templateSource } from './cloudformation-template-source';
import { validateTemplate } from './cloudformation-validate';

export interface CloudFormationStackDeployerOptions {
  /** Where templates over 51,200 bytes go; needs `urlFor`. @default - such templates are a ConfigError */
  readonly templateStore?: ArtifactStore;
  /** Key prefix for uploaded templates. @default 'templates/' */
  readonly templateKeyPrefix?: string;
  /** Between DescribeChangeSet polls in `plan`. @default 2000 */
  readonly changeSetPollIntervalMs?: number;
  /** @default 150 (5 minutes at the default interval) */
  readonly changeSetMaxPolls?: number;
  /** DescribeStackEvents pages read at most by `events` (newest first, until the last operation's start). @default 10 */
  readonly maxEventPages?: number;
  /** @default - setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * CloudFormation service role passed as `RoleARN` on create, update and delete (same-account mode: CloudFormation,
   * not the caller, holds the rights to create cluster resources).
   * @default - CloudFormation uses the caller's credentials (or the role already associated with the stack)
   */
  readonly roleArn?: string;
}

export class CloudFormationStackDeployer implements StackDeployer {
  private readonly client: CloudFormationClient;
  private readonly options: CloudFormationStackDeployerOptions;
  private readonly changeSets: CloudFormationChangeSets;

  constructor(client: CloudFormationClient, options: CloudFormationStackDeployerOptions = {}) {
    this.client = client;
    this.options = options;
    this.changeSets = new CloudFormationChangeSets(client, {
      intervalMs: options.changeSetPollIntervalMs ?? 2000,
      maxPolls: options.changeSetMaxPolls ?? 150,
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    });
  }

  async deploy(
    spec: StackSpec,
  ): Promise<{ readonly result: 'STARTED' | 'NO_CHANGES'; readonly operation?: 'create' | 'update' }> {
    const existing = await this.describeRaw(spec.name);
    const template = await templateSource(spec, this.options);
    const protect = spec.terminationProtection ?? true;
    const tags = toTags(spec.tags);

    if (!existing) {
      try {
        await this.client.send(
          new CreateStackCommand({
            StackName: spec.name,
            // Keep a failed create (ROLLBACK_COMPLETE) with its events; the next deploy deletes and re-creates it.
            OnFailure: 'ROLLBACK',
            Capabilities: [...STACK_CAPABILITIES],
            EnableTerminationProtection: protect,
            Tags: tags,
            ...template,
            ...this.role(),
          }),
        );
      } catch (error) {
        if (awsErrorName(error) === 'AlreadyExistsException') {
          throw new StackBusyError(
            `CloudFormation CreateStack ${spec.name}: created by someone else meanwhile; retry to update it`,
            { cause: error },
          );
        }
        throw toClmError(error, `CloudFormation CreateStack ${spec.name}`, spec.name);
      }
      return { result: 'STARTED', operation: 'create' };
    }

    const status = existing.StackStatus ?? 'UNKNOWN';
    if (status === 'REVIEW_IN_PROGRESS') {
      // Left by an interrupted plan: no resources, but it blocks CreateStack. Remove it; the retry creates the stack.
      await this.changeSets.cleanUp(spec.name, { stackId: existing.StackId ?? spec.name });
      throw new StackBusyError(
        `Stack ${spec.name} was left in REVIEW_IN_PROGRESS by an interrupted plan; deleted it, retry to create the stack`,
      );
    }
    if (isStackBusy(status))
      throw new StackBusyError(`Stack ${spec.name} is ${status}; it cannot be updated until that finishes`);
    if (recoveryFor(status)) throw new StackRecoveryNeededError(spec.name, status);
    if ((existing.EnableTerminationProtection ?? false) !== protect)
      await this.setTerminationProtection(spec.name, protect);
    try {
      await this.client.send(
        new UpdateStackCommand({
          StackName: spec.name,
          Capabilities: [...STACK_CAPABILITIES],
          Tags: tags,
          ...template,
          ...this.role(),
          // CLM sends its policy as "stack policy during update": it guards this update without pinning a policy.
          ...(spec.stackPolicyBody ? { StackPolicyDuringUpdateBody: spec.stackPolicyBody } : {}),
        }),
      );
    } catch (error) {
      if (isNoUpdatesError(error)) return { result: 'NO_CHANGES' };
      throw toClmError(error, `CloudFormation UpdateStack ${spec.name}`, spec.name);
    }
    return { result: 'STARTED', operation: 'update' };
  }

  async describe(name: string): Promise<StackState | undefined> {
    const stack = await this.describeRaw(name);
    return stack ? toStackState(stack) : undefined;
  }

  async delete(
    name: string,
    options: { readonly disableTerminationProtection?: boolean } = {},
  ): Promise<{ readonly result: 'STARTED' | 'ALREADY_GONE' }> {
    const existing = await this.describeRaw(name);
    if (!existing) return { result: 'ALREADY_GONE' };
    if (existing.StackStatus === 'DELETE_IN_PROGRESS') return { result: 'STARTED' };
    const lift = options.disableTerminationProtection === true;
    if (existing.EnableTerminationProtection && !lift)
      throw new ClmError(
        `Stack ${name} has termination protection enabled; only decommission (or the removal of its pool) deletes it`,
      );
    // Delete by id: a stack of the same name created after our describe is never the one we delete.
    const target = existing.StackId ?? name;
    // DeleteStack first; protection is lifted when CloudFormation refuses because of it, just before the DeleteStack
    // that deletes it. One refused call on AWS per protected stack; moto (whose UpdateTerminationProtection is broken)
    // deletes protected stacks at once.
    try {
      await this.client.send(new DeleteStackCommand({ StackName: target, ...this.role() }));
    } catch (error) {
      if (isStackMissingError(error)) return { result: 'ALREADY_GONE' };
      if (!lift || !isTerminationProtectionError(error))
        throw toClmError(error, `CloudFormation DeleteStack ${name}`, name);
      await this.setTerminationProtection(target, false, name);
      try {
        await this.client.send(new DeleteStackCommand({ StackName: target, ...this.role() }));
      } catch (retryError) {
        if (isStackMissingError(retryError)) return { result: 'ALREADY_GONE' };
        throw toClmError(retryError, `CloudFormation DeleteStack ${name}`, name);
      }
    }
    return { result: 'STARTED' };
  }

  async events(name: string): Promise<StackEvent[]> {
    const events: StackEvent[] = [];
    const maxPages = this.options.maxEventPages ?? 10;
    let token: string | undefined;
    try {
      for (let page = 0; page < maxPages; page++) {
        const out = await this.client.send(new DescribeStackEventsCommand({ StackName: name, NextToken: token }));
        for (const raw of out.StackEvents ?? []) {
          const event = toStackEvent(raw);
          events.push(event);
          // Newest first: the start of the last create or update is as far back as a cause can be.
          if (
            event.resourceType === 'AWS::CloudFormation::Stack' &&
            event.logicalResourceId === event.stackName &&
            /^(CREATE|UPDATE|IMPORT)_IN_PROGRESS$/.test(event.resourceStatus)
          )
            return events;
        }
        token = out.NextToken;
        if (!token) break;
      }
    } catch (error) {
      if (isStackMissingError(error)) return events;
      throw toClmError(error, `CloudFormation DescribeStackEvents ${name}`, name);
    }
    return events;
  }

  async continueUpdateRollback(name: string, resourcesToSkip: readonly string[]): Promise<void> {
    try {
      await this.client.send(
        new ContinueUpdateRollbackCommand({
          StackName: name,
          ...(resourcesToSkip.length ? { ResourcesToSkip: [...resourcesToSkip] } : {}),
          ...this.role(),
        }),
      );
    } catch (error) {
      throw toClmError(error, `CloudFormation ContinueUpdateRollback ${name}`, name);
    }
  }

  async list(tags: Readonly<Record<string, string>>): Promise<StackState[]> {
    const wanted = Object.entries(tags);
    const result: StackState[] = [];
    try {
      for await (const page of paginateDescribeStacks({ client: this.client }, {})) {
        for (const stack of page.Stacks ?? []) {
          if (stack.StackStatus === 'DELETE_COMPLETE') continue;
          const state = toStackState(stack);
          if (wanted.every(([key, value]) => key in state.tags && (value === '*' || state.tags[key] === value)))
            result.push(state);
        }
      }
    } catch (error) {
      throw toClmError(error, `CloudFormation DescribeStacks (listing stacks tagged ${formatTags(tags)})`);
    }
    return result;
  }

  async plan(spec: StackSpec): Promise<{ readonly exists: boolean; readonly changes: readonly StackChange[] }> {
    const existing = await this.describeRaw(spec.name);
    // A REVIEW_IN_PROGRESS stack is the leftover of an interrupted plan: it has no resources yet.
    const exists = existing !== undefined && existing.StackStatus !== 'REVIEW_IN_PROGRESS';
    const template = await templateSource(spec, this.options);
    return { exists, changes: await this.changeSets.changesOf(spec, exists, template) };
  }

  validate(templateBody: string): Promise<readonly string[]> {
    return validateTemplate(this.client, templateBody);
  }

  private async setTerminationProtection(stack: string, enabled: boolean, displayName = stack): Promise<void> {
    try {
      await this.client.send(
        new UpdateTerminationProtectionCommand({ StackName: stack, EnableTerminationProtection: enabled }),
      );
    } catch (error) {
      throw toClmError(
        error,
        `CloudFormation UpdateTerminationProtection ${displayName} (${enabled ? 'enable' : 'disable'})`,
        displayName,
      );
    }
  }

  private role(): { RoleARN?: string } {
    return this.options.roleArn ? { RoleARN: this.options.roleArn } : {};
  }

  /** The stack, or undefined when CloudFormation does not know it (or only as DELETE_COMPLETE). */
  private async describeRaw(name: string): Promise<Stack | undefined> {
    try {
      const out = await this.client.send(new DescribeStacksCommand({ StackName: name }));
      const stack = out.Stacks?.[0];
      return stack && stack.StackStatus !== 'DELETE_COMPLETE' ? stack : undefined;
    } catch (error) {
      if (isStackMissingError(error)) return undefined;
      throw toClmError(error, `CloudFormation DescribeStacks ${name}`, name);
    }
  }
}
