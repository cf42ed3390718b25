import type { StackDeployer } from '../../ports/stack-deployer';
import {
  continueUpdateRollback,
  deleteStack,
  deployStack,
  describeStack,
  listStacks,
  planStack,
  setTerminationProtection,
  validateStackTemplate,
} from '../aws/cloudformation';
import type { SimContext } from '../sim-context';
import type { AccountState } from '../world-state';
import { describeStackEvents } from '../aws/stack-events';
import { instrument } from './instrument';

/** StackDeployer over the simulated CloudFormation of one account and region. */
export function simStackDeployer(ctx: SimContext, account: AccountState, clusterId?: string): StackDeployer {
  return instrument<StackDeployer>(ctx, 'stacks', clusterId, {
    deploy: (spec) => {
      const existed = account.stacks[spec.name] !== undefined;
      const result = deployStack(ctx, account, spec);
      const stack = account.stacks[spec.name];
      if (stack && clusterId && !stack.cluster) stack.cluster = clusterId;
      return result === 'STARTED' ? { result, operation: existed ? 'update' : 'create' } : { result };
    },
    describe: (name) => describeStack(account, name),
    delete: (name, options) => {
      // Like the real adapter: termination protection off just before DeleteStack, and only when the caller says so;
      // otherwise the simulated CloudFormation refuses a protected stack.
      const stack = account.stacks[name];
      if (options?.disableTerminationProtection && stack && stack.status !== 'DELETE_IN_PROGRESS')
        setTerminationProtection(account, name, false);
      return { result: deleteStack(ctx, account, name) };
    },
    events: (name) => describeStackEvents(account.stacks[name]),
    continueUpdateRollback: (name, resourcesToSkip) => continueUpdateRollback(ctx, account, name, resourcesToSkip),
    list: (tags) => listStacks(account, tags),
    plan: (spec) => planStack(account, spec),
    validate: (templateBody) => validateStackTemplate(templateBody),
  });
}
