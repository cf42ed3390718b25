import type { Command } from 'commander';
import type { CliIo } from '../io';
import { tokenOption } from '../reach-options';
import { stateOption } from '../state-option';
import type * as ControlsRun from './controls-run';

export interface ControlOptions {
  readonly registry: string;
  readonly token?: string;
  readonly state: string;
  readonly region?: string;
  readonly reason?: string;
  readonly force?: boolean;
}

const HELP = `
Pause and abort stop a running update at its next safe point — after the node being replaced is done, never between
cordon and replacement — and keep the cluster's updates stopped (the update ends as held, exit code 3, its lease
released). A paused cluster is skipped by provision and by the dispatcher until \`clm resume\`, which lets the next
run continue from the stored progress. Abort is a pause that also says the update was abandoned. Each control records
who set it and why; \`clm status\` shows it. The cluster must be one the registry holds.`;

export function registerControlCommands(program: Command, io: CliIo): void {
  const command = (name: string, description: string) =>
    program
      .command(`${name} <cluster>`)
      .description(description)
      .requiredOption(
        '-f, --registry <uri>',
        'cluster registry: clusters.yaml path, file://, http(s):// or dynamodb://',
      )
      .addOption(tokenOption('bearer token for an HTTP registry'))
      .addOption(stateOption('the progress store: a directory, or the deployed table'))
      .option('--region <region>', 'region of the deployed table', process.env.AWS_REGION);
  const control = (name: string, description: string, reason: boolean) => {
    const c = command(name, description);
    if (reason) c.option('--reason <text>', 'why (shown by clm status and in the execution output)');
    return c.addHelpText('after', HELP);
  };
  control('pause', 'Stop updates of a cluster at the next safe point, and keep them stopped.', true).action(
    (cluster: string, options: ControlOptions) => run((c) => c.setControls(cluster, options, io, { paused: true })),
  );
  control('abort', 'Abandon the running update at the next safe point, and keep updates stopped.', true).action(
    (cluster: string, options: ControlOptions) =>
      run((c) => c.setControls(cluster, options, io, { abortRequested: true })),
  );
  control('resume', 'Let updates of a paused or aborted cluster continue.', false).action(
    (cluster: string, options: ControlOptions) => run((c) => c.setControls(cluster, options, io, {})),
  );
  command('unlock', "Break a cluster's stale lease (a run that died without releasing it).")
    .option('--force', 'break it even when its holder may still be running')
    .action((cluster: string, options: ControlOptions) => run((c) => c.unlock(cluster, options, io)));
}

/** The implementation (the registry, the progress stores) loads only when a control is set. */
async function run(act: (commands: typeof ControlsRun) => Promise<void>): Promise<void> {
  await act(await import('./controls-run'));
}
