import type { SimContext } from '../sim-context';
import { ensureAccount } from './account';
import { completeStackOperation, deployStack } from './cloudformation';

/**
 * The scenario's `accounts[].stacks`: stacks someone deployed before CLM acts (kubernetes-on-aws's etcd pre-stack with
 * the key `alias/etcd-cluster` names), created at once when the world starts. A template the simulated CloudFormation
 * refuses fails the world's creation, naming the stack.
 */
export function seedAccountStacks(ctx: SimContext): void {
  for (const entry of ctx.state.scenario.accounts ?? []) {
    const account = ensureAccount(ctx, entry.account, entry.region);
    for (const seed of entry.stacks) {
      deployStack(ctx, account, { name: seed.name, templateBody: seed.template, tags: seed.tags });
      const stack = account.stacks[seed.name]!;
      completeStackOperation(ctx, account, seed.name, stack.token);
      if (stack.status !== 'CREATE_COMPLETE')
        throw new Error(
          `scenario accounts ${entry.account}/${entry.region}: stack ${seed.name} is ${stack.status}: ${stack.reason ?? ''}`,
        );
    }
  }
}
