import type { StackDeployer } from '../../ports/stack-deployer';
import {
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
    delete: (name) => {
      // Like the real adapter: termination protection off first, then DeleteStack.
      setTerminationProtection(account, name, false);
      return { result: deleteStack(ctx, account, name) };
    },
    list: (tags) => listStacks(account, tags),
    plan: (spec) => planStack(account, spec),
    validate: (templateBody) => validateStackTemplate(templateBody),
  });
}
