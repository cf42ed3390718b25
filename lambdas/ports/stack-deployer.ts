import type { StackEvent } from '../core/stacks/stack-events';

export type { StackEvent } from '../core/stacks/stack-events';

/** A CloudFormation stack to create or update. */
export interface StackSpec {
  readonly name: string;
  readonly templateBody: string;
  /** CLM's tags win over the template's `Metadata.Tags`. */
  readonly tags: Readonly<Record<string, string>>;
  /** Default true, as CLM. */
  readonly terminationProtection?: boolean;
  readonly stackPolicyBody?: string;
}

export interface StackState {
  readonly name: string;
  /** The raw CloudFormation status, e.g. UPDATE_COMPLETE; see core/stacks/stack-status.ts to classify it. */
  readonly status: string;
  readonly reason?: string;
  readonly outputs: Readonly<Record<string, string>>;
  readonly tags: Readonly<Record<string, string>>;
  /** ISO time of the last create/update/delete start, when known. */
  readonly lastUpdatedTime?: string;
}

export interface StackChange {
  readonly action: 'Add' | 'Modify' | 'Remove' | 'Import' | 'Dynamic';
  readonly logicalId: string;
  readonly resourceType: string;
  readonly replacement?: 'True' | 'False' | 'Conditional';
}

export interface StackDeployer {
  /**
   * Create or update. "No updates are to be performed" is `NO_CHANGES`, not an error. Busy stacks throw
   * StackBusyError; a stack in UPDATE_ROLLBACK_FAILED or ROLLBACK_COMPLETE throws StackRecoveryNeededError.
   * A failed create stays in ROLLBACK_COMPLETE (OnFailure=ROLLBACK) so its events can be read.
   */
  deploy(
    spec: StackSpec,
  ): Promise<{ readonly result: 'STARTED' | 'NO_CHANGES'; readonly operation?: 'create' | 'update' }>;
  /** Undefined when the stack does not exist. */
  describe(name: string): Promise<StackState | undefined>;
  /**
   * Deletes the stack. A stack with termination protection is refused (CloudFormation's ValidationError) unless
   * `disableTerminationProtection` is set: then protection is turned off just before DeleteStack, and only when it
   * is on. A missing stack is `ALREADY_GONE`.
   */
  delete(
    name: string,
    options?: { readonly disableTerminationProtection?: boolean },
  ): Promise<{ readonly result: 'STARTED' | 'ALREADY_GONE' }>;
  /** The stack's events back to (at least) the start of its last create or update, newest first (DescribeStackEvents). */
  events(name: string): Promise<StackEvent[]>;
  /** ContinueUpdateRollback of a stack in UPDATE_ROLLBACK_FAILED, skipping exactly `resourcesToSkip`. */
  continueUpdateRollback(name: string, resourcesToSkip: readonly string[]): Promise<void>;
  /** Stacks carrying all the given tags (value `*` matches any value). */
  list(tags: Readonly<Record<string, string>>): Promise<StackState[]>;
  /** Dry run: what would change (CloudFormation change set, deleted afterwards). */
  plan(spec: StackSpec): Promise<{ readonly exists: boolean; readonly changes: readonly StackChange[] }>;
  /**
   * CloudFormation's own check of a template (ValidateTemplate): its problems, empty when it is valid. Templates over
   * ValidateTemplate's inline limit (51,200 bytes) are not sent; the answer is then empty too.
   */
  validate(templateBody: string): Promise<readonly string[]>;
}
