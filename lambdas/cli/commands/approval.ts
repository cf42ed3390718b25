import type { Command } from 'commander';
import type { TaskTokens } from '../../ports/task-tokens';
import type { CliIo } from '../io';
import { stateOption } from '../state-option';

export interface DecisionOptions {
  readonly state: string;
  readonly region?: string;
  readonly reason?: string;
  /** Decide only if the pending plan is this one (what the operator read). */
  readonly plan?: string;
}

const HELP = `
With the config item update_requires_approval: "true" (on the cluster, or from config-defaults.yaml, e.g. by
criticality level), an update plans itself after rendering and waits, before its first write, until the plan is
approved. The plan is what gets approved: if the target version or the live cluster changes, the approval lapses
and the next run asks again. A deployed execution waits on a task token (update_approval_timeout, default 24h)
that this command sends back; a CLI run stops held (exit 3) and continues when run again after approval.
Read the plan first: \`clm status\` names it, \`clm plan\` shows it; --plan DIGEST decides only that plan.`;

export function registerApprovalCommands(
  program: Command,
  io: CliIo,
  tokens?: (region?: string) => Promise<TaskTokens>,
): void {
  const decision = (name: string, description: string) =>
    program
      .command(`${name} <cluster>`)
      .description(description)
      .addOption(stateOption('the progress store: a directory, or the deployed table'))
      .option('--region <region>', 'region of the deployed table and state machine', process.env.AWS_REGION)
      .option('--plan <digest>', 'decide only if the pending plan has this digest')
      .option('--reason <text>', 'why (shown by clm status and in the execution)')
      .addHelpText('after', HELP);
  decision('approve', "Approve the pending plan of a cluster's update; the update goes on.").action(
    (cluster: string, options: DecisionOptions) => decide(cluster, 'APPROVED', options, io, tokens),
  );
  decision('reject', "Reject the pending plan of a cluster's update; it ends without changing anything.").action(
    (cluster: string, options: DecisionOptions) => decide(cluster, 'REJECTED', options, io, tokens),
  );
}

/** The implementation (progress store, Step Functions) loads only when a decision is made. */
async function decide(
  cluster: string,
  status: 'APPROVED' | 'REJECTED',
  options: DecisionOptions,
  io: CliIo,
  tokens: ((region?: string) => Promise<TaskTokens>) | undefined,
): Promise<void> {
  const { decideApproval, sfnTaskTokens } = await import('./approval-run');
  await decideApproval(cluster, status, options, io, tokens ?? sfnTaskTokens);
}
