import { classifyStackStatus } from '../../core/stacks/stack-status';
import type { StackDeployer } from '../../ports/stack-deployer';
import { StackFailedError } from '../../shared/errors';

/**
 * One pass of deleting stacks: start deleting those still there (the deployer turns termination protection off),
 * wait for those busy with another operation, fail on DELETE_FAILED. Returns the names not gone yet.
 */
export async function deleteStacksPass(deployer: StackDeployer, names: readonly string[]): Promise<string[]> {
  const pending: string[] = [];
  for (const name of names) {
    const state = await deployer.describe(name);
    if (!state || state.status === 'DELETE_COMPLETE') continue;
    if (state.status === 'DELETE_FAILED') throw new StackFailedError(name, state.status, state.reason);
    const deleting = state.status === 'DELETE_IN_PROGRESS';
    if (!deleting && classifyStackStatus(state.status) !== 'in-progress') {
      const { result } = await deployer.delete(name);
      if (result === 'ALREADY_GONE') continue;
    }
    pending.push(name);
  }
  return pending;
}
