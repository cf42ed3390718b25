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
With --rehearse: a snapshot of each cluster (reads only) runs the update in a simulated twin --runs times (default
5, timings varied): predicted duration p50/p90, per pool the batches, PDBs that block, forced drains, Pending pods,
surge capacity and cost. README "Rehearsing a change".
Exit codes: 0 planned, 1 a cluster could not be planned (its problems are listed), 2 usage error.`;

export interface PlanFlags extends ProvisionOptions {
  readonly rehearse?: boolean;
  readonly runs?: number;
}

export function registerPlanCommand(program: Command, io: CliIo): void {
  const command = program
    .command('plan')
    .description('Show what provision would change in each cluster, changing nothing (a dry run).');
  addClusterFlags(command)
    .option('--rehearse', 'also rehearse the update in a twin of each cluster (simulated) and predict how it goes')
    .option('--runs <n>', 'with --rehearse: runs with varied timings', (v) => Number.parseInt(v, 10))
    .addHelpText('after', EXAMPLES)
    .action(async (options: PlanFlags, self: Command) => {
      const [{ runPlan }, { withStateOf }] = await Promise.all([import('./plan-run'), import('./provision-run')]);
      const code = await runPlan(withStateOf(options, self), io);
      if (code !== EXIT.OK) throw new CliExit(code);
    });
}
