// `clm override-halt`'s implementation, loaded by its action (override-halt.ts declares the command).
import { resolve } from 'node:path';
import { openFileFleetStore } from '../../adapters/fleet/file-fleet-store';
import { formatHalts } from '../../core/dispatch/fleet-report';
import { shortVersion } from '../../core/dispatch/waves';
import { EXIT, UsageError, type CliIo, type ExitCode } from '../io';
import type { OverrideOptions } from './override-halt';

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
