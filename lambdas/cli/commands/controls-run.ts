// `clm pause`, `abort`, `resume` and `unlock`: the implementation, loaded by their actions (controls.ts declares them).
import { hostname, userInfo } from 'node:os';
import type { ClusterControls } from '../../ports/progress-store';
import { isHolderGone } from '../../shared/process-identity';
import { UsageError, type CliIo } from '../io';
import { openStateStores, type StateStores } from '../state-stores';
import { usageAsync } from '../usage';
import type { ControlOptions } from './controls';

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

export async function setControls(
  cluster: string,
  options: ControlOptions,
  io: CliIo,
  set: ClusterControls,
): Promise<void> {
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

export async function unlock(cluster: string, options: ControlOptions, io: CliIo): Promise<void> {
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
