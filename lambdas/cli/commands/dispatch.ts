import type { Command } from 'commander';
import { Option } from 'commander';
import { CliExit, EXIT, type CliIo } from '../io';
import { addFleetOptions, type FleetFlags } from '../fleet/fleet-options';
import { optimizeHotCode } from '../optimizing-compiler';

export interface DispatchOptions extends FleetFlags {
  readonly changesOnly?: boolean;
  readonly cluster?: string[];
  readonly output: 'text' | 'json';
  readonly verbose?: boolean;
}

const EXAMPLES = `
Examples:
  # One pass over the example fleet in the simulated world: what starts, what waits and why, then the updates run
  $ clm dispatch --simulate --registry examples/clusters.yaml --directory examples/config

  # The config from a local git repository (a push to it changes the target), as JSON
  $ clm dispatch --simulate --registry clusters.yaml --config-source main:git:file:///srv/git/acme/cluster-config.git \\
      --output json

  # Only the clusters the registry changed since the last pass; at most 2 updates at once, test before prod
  $ clm dispatch --simulate --registry clusters.yaml --directory config --changes-only --max-concurrent 2 \\
      --wave-order test,prod

A pass reads the registry once, computes every cluster's target version and starts cluster-update executions in
CLM's priority order, wave by wave (environments in --wave-order, then criticality), under --max-concurrent; a
failed cluster halts the later waves of its version (see clm status, and clm override-halt). The started updates
then run here, one after the other, on the same state machine as the deployed system; Ctrl-C stops between two
tasks (run the command again to resume). The fleet state is kept in --state (fleet.json, executions.json).
Exit codes: 0 every started update succeeded (or nothing started), 1 an update failed, 2 usage error.`;

export function registerDispatchCommand(program: Command, io: CliIo): void {
  addFleetOptions(
    program
      .command('dispatch')
      .description('Run one dispatcher pass: decide which clusters update now (waves, halts, the cap), then run them.'),
  )
    .option('--changes-only', 'start only clusters whose registry entry changed since the last pass')
    .option('--cluster <id>', 'only these clusters may start, repeatable (waves still count the whole fleet)', collect)
    .option('-v, --verbose', "print every task's progress line of the updates")
    .addOption(new Option('-o, --output <format>', 'what to print').choices(['text', 'json']).default('text'))
    .addHelpText('after', EXAMPLES)
    .action(async (options: DispatchOptions) => {
      const { runDispatch } = await import('./dispatch-run');
      optimizeHotCode();
      const code = await runDispatch(options, io);
      if (code !== EXIT.OK) throw new CliExit(code);
    });
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
