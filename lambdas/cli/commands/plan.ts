import type { Command } from 'commander';
import { formatPlan } from '../../core/plan/format-plan';
import type { ClusterPlan } from '../../core/plan/plan-document';
import { planCluster } from '../../tasks/plan/plan-cluster';
import { CliExit, EXIT, type CliIo, type ExitCode } from '../io';
import { addClusterFlags, openSelectedClusters, withStateOf, type ProvisionOptions } from './provision';
import { peersOf } from '../../core/eks/oidc-trust';
import { listWithStoredStatus } from '../../tasks/step/cluster-status';

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
      const code = await runPlan(withStateOf(options, self), io);
      if (code !== EXIT.OK) throw new CliExit(code);
    });
}

export async function runPlan(options: ProvisionOptions, io: CliIo): Promise<ExitCode> {
  const { selected, world } = await openSelectedClusters(options, io);
  const plans: ClusterPlan[] = [];
  // The world is never saved: a plan leaves the state directory (and the simulated world) as it found them.
  const all = await listWithStoredStatus(world.ports);
  for (const cluster of selected) {
    const withPeers = { ...cluster, accountClusters: peersOf(cluster, all) };
    plans.push(await planCluster(withPeers, world.ports, { applyOnly: options.applyOnly ?? false }));
  }
  io.stdout(
    options.output === 'json' ? `${JSON.stringify({ clusters: plans }, null, 2)}\n` : plans.map(formatPlan).join('\n'),
  );
  return plans.some((p) => p.problems.length) ? EXIT.FAILED : EXIT.OK;
}
