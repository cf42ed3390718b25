import { Command, CommanderError } from 'commander';
import { ClmError, ValidationError } from '../shared/errors';
import { registerApprovalCommands } from './commands/approval';
import { registerControlCommands } from './commands/controls';
import { registerMigrateCommand } from './commands/migrate';
import { registerProvisionCommands } from './commands/provision';
import { registerRenderCommand } from './commands/render';
import { registerStatusCommand } from './commands/status';
import { registerFleetPageCommand } from './commands/fleet-page';
import { registerDispatchCommand } from './commands/dispatch';
import { registerOverrideHaltCommand } from './commands/override-halt';
import { registerServeCommand } from './commands/serve';
import { registerPlanCommand } from './commands/plan';
import { registerStackCommands } from './commands/stack';
import { registerRollCommand } from './commands/roll';
import { CliExit, EXIT, UsageError, processIo } from './io';
import type { CliIo } from './io';
import { clmVersion } from './version';
import { redactSecrets, rememberSecret } from '../shared/redact';

/**
 * The `clm` command line. Each command registers itself (`registerXCommand(program, io)`); exit codes:
 * 0 ok, 1 a cluster failed (migrate: a file was refused), 2 usage errors (bad flags, unknown cluster, unreadable
 * registry).
 */
export async function main(argv: string[], given: CliIo = processIo()): Promise<number> {
  rememberSecrets(argv);
  // What goes to stderr is about failures and warnings: it never shows a secret (shared/redact.ts).
  const io: CliIo = { ...given, stderr: (text) => given.stderr(redactSecrets(text)) };
  const program = new Command('clm')
    .description(
      'Cluster Lifecycle Manager: render, provision, decommission and inspect Kubernetes clusters on AWS (or on a simulated account with --simulate); dispatch updates across a fleet, or serve as a controller that git pushes trigger; migrate a Zalando CLM config repository.',
    )
    .version(clmVersion(), '-V, --version', 'print the version of clm')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run with --help for usage)');
  program.addHelpText('after', '\nRun `clm <command> --help` for the flags of a command, with examples.');
  registerRenderCommand(program, io);
  registerProvisionCommands(program, io);
  registerStatusCommand(program, io);
  registerFleetPageCommand(program, io);
  registerDispatchCommand(program, io);
  registerServeCommand(program, io);
  registerOverrideHaltCommand(program, io);
  registerMigrateCommand(program, io);
  registerPlanCommand(program, io);
  registerControlCommands(program, io);
  registerApprovalCommands(program, io);
  registerStackCommands(program, io);
  registerRollCommand(program, io);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.OK;
  } catch (error) {
    return exitCode(error, io);
  }
}

/** The secrets given on the command line or in the environment, so no message shows them (shared/redact.ts). */
function rememberSecrets(argv: readonly string[]): void {
  rememberSecret(process.env.CLM_TOKEN);
  argv.forEach((arg, i) => {
    if (arg === '--token') rememberSecret(argv[i + 1]);
    else if (arg.startsWith('--token=')) rememberSecret(arg.slice('--token='.length));
  });
}

function exitCode(error: unknown, io: CliIo): number {
  if (error instanceof CliExit) return error.code;
  if (error instanceof CommanderError) {
    // Help and version are successful; everything else commander rejects is a usage error (already printed).
    return ['commander.helpDisplayed', 'commander.version'].includes(error.code) ? EXIT.OK : EXIT.USAGE;
  }
  if (error instanceof UsageError || error instanceof ValidationError) {
    io.stderr(`error: ${error.message}\n(run with --help for usage)\n`);
    return EXIT.USAGE;
  }
  // Known errors speak for themselves; anything else is a bug, shown with its stack.
  const text =
    error instanceof ClmError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr(`error: ${text}\n`);
  return EXIT.FAILED;
}
