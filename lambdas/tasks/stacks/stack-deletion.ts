import { classifyStackStatus } from '../../core/stacks/stack-status';
import type { StackDeployer } from '../../ports/stack-deployer';
import { StackFailedError } from '../../shared/errors';

/**
 * One pass of deleting stacks: start deleting those still there, wait for those busy with another operation, fail on
 * DELETE_FAILED. Returns the names not gone yet. `liftProtection` says for which stacks termination protection may be
 * turned off (just before their DeleteStack); a protected stack it excludes is refused by the deployer. The main
 * stack is only ever lifted by decommission's last stage.
 */
export async function deleteStacksPass(
  deployer: StackDeployer,
  names: readonly string[],
  liftProtection: (name: string) => boolean,
): Promise<string[]> {
  const pending: string[] = [];
  for (const name of names) {
    const state = await deployer.describe(name);
    if (!state || state.status === 'DELETE_COMPLETE') continue;
    if (state.status === 'DELETE_FAILED') throw new StackFailedError(name, state.status, state.reason);
    const deleting = state.status === 'DELETE_IN_PROGRESS';
    if (!deleting && classifyStackStatus(state.status) !== 'in-progress') {
      const { result } = await deployer.delete(name, { disableTerminationProtection: liftProtection(name) });
      if (result === 'ALREADY_GONE') continue;
    }
    pending.push(name);
  }
  return pending;
}
