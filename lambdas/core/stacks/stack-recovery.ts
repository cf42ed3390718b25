/**
 * Recovery of stacks CloudFormation left where no update can start (reference/clm-behaviour.md §6.3 lists them as
 * plain failures; CLM stops there for ever):
 *
 * - UPDATE_ROLLBACK_FAILED: ContinueUpdateRollback brings it back to UPDATE_ROLLBACK_COMPLETE, skipping only the
 *   resources the operator named (`--skip-rollback-resources STACK:LogicalId`); then the update is deployed again.
 * - ROLLBACK_COMPLETE (a create that failed and was rolled back: the stack holds no resources): deleted, then
 *   created again.
 */
import { ValidationError } from '../../shared/errors';
import type { FailedResource } from './stack-events';

export type StackRecoveryAction = 'continue-rollback' | 'recreate';

/** What to do with a stack in `status` before it can be deployed; undefined when nothing is needed. */
export function recoveryFor(status: string): StackRecoveryAction | undefined {
  if (status === 'UPDATE_ROLLBACK_FAILED') return 'continue-rollback';
  if (status === 'ROLLBACK_COMPLETE') return 'recreate';
  return undefined;
}

/** Operator-named resources to skip when continuing a rollback, per stack name. */
export type RollbackSkips = Readonly<Record<string, readonly string[]>>;

const ENTRY = /^([A-Za-z][-A-Za-z0-9]*):([A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)$/;

/**
 * `STACK:LogicalId` entries (comma lists allowed; a nested stack's resource is `STACK:NestedStack.LogicalId`, as
 * CloudFormation's ResourcesToSkip names it). A malformed entry is a ValidationError naming it and `source`.
 */
export function parseRollbackSkips(values: readonly string[], source = '--skip-rollback-resources'): RollbackSkips {
  const skips: Record<string, string[]> = {};
  for (const value of values)
    for (const raw of value.split(',')) {
      const entry = raw.trim();
      if (!entry) continue;
      const match = ENTRY.exec(entry);
      if (!match)
        throw new ValidationError(
          `${source}: "${entry}" is not STACK:LogicalId (a stack name, a colon, a resource's logical id)`,
        );
      const list = (skips[match[1]] ??= []);
      if (!list.includes(match[2])) list.push(match[2]);
    }
  return skips;
}

/**
 * The ResourcesToSkip for one stack: what the operator named for it, each of which must be a resource that failed
 * during the rollback (CloudFormation refuses any other). Skipping is never decided here, only checked.
 */
export function resourcesToSkip(
  stackName: string,
  skips: RollbackSkips,
  rollbackFailed: readonly FailedResource[],
): string[] {
  const named = skips[stackName] ?? [];
  const failed = new Set(rollbackFailed.map((r) => r.logicalId));
  const unknown = named.filter((id) => !failed.has(id.split('.')[0]));
  if (unknown.length && failed.size)
    throw new ValidationError(
      `--skip-rollback-resources: ${unknown.map((id) => `${stackName}:${id}`).join(', ')} did not fail in the rollback of stack ${stackName}; the resources that did: ${[...failed].join(', ')}`,
    );
  return [...named];
}
