import type { Command } from 'commander';
import { CliExit, EXIT, type CliIo } from '../io';
import { addClusterFlags, type ProvisionOptions } from './provision';
import { Option } from 'commander';

export interface RollOptions extends ProvisionOptions {
  readonly force?: boolean;
  readonly pool?: string[];
  readonly reason?: string;
}

const EXAMPLES = `
Examples:
  # Replace every node of one pool of a simulated cluster (a kernel CVE), and say why
  $ clm roll aws:123456789012:eu-central-1:kube-test --pool default-worker --force --reason "CVE-2026-1234" \\
      --simulate --registry examples/clusters.yaml --directory examples/config

  # Every pool of a real cluster, against the deployed system
  $ clm roll aws:123456789012:eu-central-1:kube-1 --force --reason "compromised node suspected" \\
      --registry clusters.yaml --config-source main:git:https://github.com/org/config --remote "$CLM_CLUSTER_UPDATE_ARN"

Replaces every node of the named pools (default: every pool) exactly once, through the same safe roll as a config
change (surge, drain with PDBs respected, termination, replacement in the same zone, health gate), as an update of
the cluster at its current version: its stacks and manifests are checked and left as they are when unchanged.
Nodes that registered before the roll was asked for are replaced; the nodes it brings up are never taken, so a
forced roll that is interrupted (Ctrl-C, a crash) and run again goes on and replaces no node twice. Who asked
(user@host) and --reason are kept on the run record (clm status). Pause, abort, cluster_update_block, the
maintenance windows and the cluster's lease hold as for any update. Exit codes as for provision.`;

export function registerRollCommand(program: Command, io: CliIo): void {
  const command = program
    .command('roll')
    .argument('<cluster>', 'the cluster id')
    .description('Replace every node of a cluster (or of some pools) without a config change: --force.');
  addClusterFlags(command)
    .option('--pool <name>', 'only this node pool, repeatable (default: every pool)', collect)
    .option('--force', 'replace the nodes although their launch templates are current (required)')
    .option('--reason <text>', 'why, kept with the run (and who asked)')
    .addOption(
      new Option(
        '--remote <state-machine-arn>',
        'start the deployed cluster-update state machine and follow it (no local run)',
      ).env('CLM_CLUSTER_UPDATE_ARN'),
    )
    .option('--no-follow', 'with --remote: start the execution and return')
    .option(
      '--local-lease',
      'against real AWS with --state DIR: take the lease in that directory although a deployed CLM cannot see it',
    )
    .addHelpText('after', EXAMPLES)
    .action(async (cluster: string, options: RollOptions, self: Command) => {
      const [{ runRoll }, { withStateOf }] = await Promise.all([import('./roll-run'), import('./provision-run')]);
      const code = await runRoll(cluster, withStateOf(options, self), io);
      if (code !== EXIT.OK) throw new CliExit(code);
    });
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
