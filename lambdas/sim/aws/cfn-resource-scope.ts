import { hashOf } from '../hash';
import type { SimContext } from '../sim-context';
import type { AccountState, ResourceRecord, StackRecord } from '../world-state';

/** Where a stack resource is created, updated or deleted, and what it was before. */
export interface ResourceScope {
  readonly ctx: SimContext;
  readonly account: AccountState;
  readonly stack: StackRecord;
  /** Tags of the stack as they will be after this operation (CloudFormation propagates them). */
  readonly stackTags: Readonly<Record<string, string>>;
  readonly logicalId: string;
  readonly previous?: ResourceRecord;
}

/** What provisioning a resource gives: its physical id and the attributes `Fn::GetAtt` reads. */
export type Provisioned = Pick<ResourceRecord, 'physicalId' | 'attributes' | 'model'>;
/** A resource's evaluated properties. */
export type Props = Record<string, unknown>;

/** An upper-case hex id derived from `parts`. */
export const upperId = (parts: string[], length: number): string => hashOf(parts, length).toUpperCase();

/** CloudFormation's generated name: `<stack>-<logical id>-<13 characters>`, within `maxLength`. */
export function defaultName(scope: ResourceScope, maxLength = 128): string {
  return (
    `${scope.stack.name}-${scope.logicalId}`.slice(0, maxLength - 14) +
    `-${upperId([scope.stack.stackId, scope.logicalId], 13)}`
  );
}
