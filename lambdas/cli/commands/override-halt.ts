import { userInfo } from 'node:os';
import type { Command } from 'commander';
import type { CliIo } from '../io';

export interface OverrideOptions {
  readonly reason?: string;
  readonly by?: string;
  readonly withdraw?: boolean;
  readonly state: string;
}

const EXAMPLES = `
Examples:
  # clm status shows: HALTED at 0d1a26e67d8f, wave test (criticality 1); holding staging …: kube-test failed …
  $ clm override-halt 0d1a26e67d8f --reason "kube-test is being rebuilt; the change is safe elsewhere"

  # Let the halt hold again
  $ clm override-halt 0d1a26e67d8f --withdraw

A failed cluster halts the later waves of its config version. An override lets them proceed: the failed clusters
no longer hold anything back (they still retry after their back-off). It applies to one config version (the commit,
or a unique prefix of a halted one) and is kept in --state (overrides.json), read by the next pass of clm dispatch
or a running clm serve.`;

export function registerOverrideHaltCommand(program: Command, io: CliIo): void {
  program
    .command('override-halt')
    .description("Let the waves of a halted rollout proceed despite its failed clusters (an operator's decision).")
    .argument('<config-version>', 'the halted config version, as clm status prints it (a unique prefix is enough)')
    .option('--reason <text>', 'why the halt may be overridden (required unless --withdraw)')
    .option('--by <name>', 'who decides', userInfo().username)
    .option('--withdraw', 'remove the override: the halt holds again')
    .option('--state <dir>', 'the state directory of clm dispatch / clm serve', '.clm-state')
    .addHelpText('after', EXAMPLES)
    .action(async (version: string, options: OverrideOptions) => {
      const { runOverrideHalt } = await import('./override-halt-run');
      await runOverrideHalt(version, options, io);
    });
}
