import { hostname, userInfo } from 'node:os';
import type { Command } from 'commander';
import type { ClusterControls } from '../../ports/progress-store';
import { isHolderGone } from '../../shared/process-identity';
import { UsageError, type CliIo } from '../io';
import { openStateStores, type StateStores } from '../state-stores';
import { usageAsync } from '../usage';

interface ControlOptions {
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
who set it and why; \`clm status\` shows it.`;

export function registerControlCommands(program: Command, io: CliIo): void {
  const control = (name: string, description: string, reason: boolean) => {
    const command = program
      .command(`${name} <cluster>`)
      .description(description)
      .option('--state <dir|dynamodb://TABLE>', 'the progress store: a directory, or the deployed table', '.clm-state')
      .option('--region <region>', 'region of the deployed table', process.env.AWS_REGION);
    if (reason) command.option('--reason <text>', 'why (shown by clm status and in the execution output)');
    return command.addHelpText('after', HELP);
  };
  control('pause', 'Stop updates of a cluster at the next safe point, and keep them stopped.', true).action(
    (cluster: string, options: ControlOptions) => setControls(cluster, options, io, { paused: true }),
  );
  control('abort', 'Abandon the running update at the next safe point, and keep updates stopped.', true).action(
    (cluster: string, options: ControlOptions) => setControls(cluster, options, io, { abortRequested: true }),
  );
  control('resume', 'Let updates of a paused or aborted cluster continue.', false).action(
    (cluster: string, options: ControlOptions) => setControls(cluster, options, io, {}),
  );
  program
    .command('unlock <cluster>')
    .description("Break a cluster's stale lease (a run that died without releasing it).")
    .option('--state <dir|dynamodb://TABLE>', 'the progress store: a directory, or the deployed table', '.clm-state')
    .option('--region <region>', 'region of the deployed table', process.env.AWS_REGION)
    .option('--force', 'break it even when its holder may still be running')
    .action((cluster: string, options: ControlOptions) => unlock(cluster, options, io));
}

/** The progress store of `--state`: the controls of deployed clusters live in the deployed table. */
function stores(options: ControlOptions, io: CliIo): Promise<StateStores> {
  return usageAsync(() =>
    openStateStores(options.state, {
      cwd: io.cwd,
      fleet: false,
      ...(options.region ? { region: options.region } : {}),
    }),
  );
}

export function operator(): string {
  return `${userInfo().username}@${hostname()}`;
}

async function setControls(cluster: string, options: ControlOptions, io: CliIo, set: ClusterControls): Promise<void> {
  const { progress: store, save } = await stores(options, io);
  const controls: ClusterControls = {
    ...set,
    ...(options.reason ? { reason: options.reason } : {}),
    by: operator(),
    at: Date.now(),
  };
  // The approval record is not a control of pause/resume: it stays as it is.
  const { approval } = (await store.getControls(cluster)) ?? {};
  await store.putControls(cluster, {
    ...(set.paused || set.abortRequested ? controls : {}),
    ...(approval ? { approval } : {}),
  });
  save();
  const lease = await store.getLease(cluster);
  const running = lease && lease.expiresAt > Date.now() ? ` (running now, held by ${lease.holder})` : '';
  const what = set.paused
    ? `paused${running ? `; the update stops at its next safe point${running}` : ''}`
    : set.abortRequested
      ? `aborted${running ? `; the update stops at its next safe point${running}` : ''}`
      : 'resumed: the next provision or dispatcher pass continues from the stored progress';
  io.stdout(`${cluster}: ${what}\n`);
}

async function unlock(cluster: string, options: ControlOptions, io: CliIo): Promise<void> {
  const { progress: store, save } = await stores(options, io);
  const lease = await store.getLease(cluster);
  if (!lease) {
    io.stdout(`${cluster}: no lease held\n`);
    return;
  }
  const stale = lease.expiresAt <= Date.now() || isHolderGone(lease.holder);
  if (!stale && !options.force)
    throw new UsageError(
      `${cluster}: the lease is held by ${lease.holder} until ${new Date(lease.expiresAt).toISOString()}, which may still be running; stop it first, or pass --force if you are sure it is gone`,
    );
  await store.releaseLease(cluster, lease.holder);
  save();
  io.stdout(`${cluster}: lease of ${lease.holder} broken${stale ? ' (its holder is gone)' : ' (--force)'}\n`);
}
