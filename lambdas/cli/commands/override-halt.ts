import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { openFileFleetStore } from '../../adapters/fleet/file-fleet-store';
import { formatHalts } from '../../core/dispatch/fleet-report';
import { shortVersion } from '../../core/dispatch/waves';
import { EXIT, UsageError, type CliIo, type ExitCode } from '../io';

interface OverrideOptions {
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
      await runOverrideHalt(version, options, io);
    });
}

export async function runOverrideHalt(version: string, options: OverrideOptions, io: CliIo): Promise<ExitCode> {
  if (!options.withdraw && !options.reason?.trim()) throw new UsageError('give --reason TEXT (or --withdraw)');
  const { store } = openFileFleetStore(resolve(io.cwd, options.state));
  const fleet = await store.loadFleet();
  const known = [...new Set([...fleet.halts, ...fleet.overrides].map((h) => h.configVersion))];
  const matches = known.filter((v) => v.startsWith(version));
  if (matches.length > 1) {
    throw new UsageError(`${version} matches several config versions: ${matches.map(shortVersion).join(', ')}`);
  }
  const configVersion = matches[0] ?? version;
  if (options.withdraw) {
    if (!fleet.overrides.some((o) => o.configVersion === configVersion)) {
      throw new UsageError(
        `no override at ${version} (overrides: ${fleet.overrides.map((o) => shortVersion(o.configVersion)).join(', ') || 'none'})`,
      );
    }
    await store.removeOverride(configVersion);
    io.stdout(`override at ${shortVersion(configVersion)} withdrawn: its halt holds again from the next pass\n`);
    return EXIT.OK;
  }
  if (!matches.length) io.stderr(`note: no halt at ${version} now; the override applies if one comes\n`);
  const override = { configVersion, reason: options.reason!.trim(), by: options.by ?? 'operator', at: Date.now() };
  await store.putOverride(override);
  io.stdout(`${formatHalts([], [override]).join('\n').trim()}\nthe next pass lets the later waves proceed\n`);
  return EXIT.OK;
}
