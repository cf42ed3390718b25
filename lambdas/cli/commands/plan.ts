import type { Command } from 'commander';
import { CliExit, EXIT, type CliIo } from '../io';
import { addClusterFlags, type ProvisionOptions } from './provision';

const EXAMPLES = `
Examples:
  # What provision would do to the simulated clusters, changing nothing
  $ clm plan --simulate --registry examples/clusters.yaml --directory examples/config

  # One real cluster, as JSON
  $ clm plan --registry clusters.yaml --config-source main:git:https://github.com/org/config --token "$TOKEN" \\
      --bucket my-clm-bucket --cluster aws:123456789012:eu-central-1:kube-1 --output json

A dry run with zero writes: per stack a CloudFormation change set (created, described, deleted, never executed),
per manifest object a server-side dry-run apply (dryRun=All) and its field diff against the live object, what
prune and deletions.yaml would delete, the node pools that would roll (nodes, batches, estimated minutes), and
the config items changed since the current version. Nothing is recorded: no run, no lease, no saved state.
Exit codes: 0 planned, 1 a cluster could not be planned (its problems are listed), 2 usage error.`;

export function registerPlanCommand(program: Command, io: CliIo): void {
  const command = program
    .command('plan')
    .description('Show what provision would change in each cluster, changing nothing (a dry run).');
  addClusterFlags(command)
    .addHelpText('after', EXAMPLES)
    .action(async (options: ProvisionOptions, self: Command) => {
      const [{ runPlan }, { withStateOf }] = await Promise.all([import('./plan-run'), import('./provision-run')]);
      const code = await runPlan(withStateOf(options, self), io);
      if (code !== EXIT.OK) throw new CliExit(code);
    });
}
