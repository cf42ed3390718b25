// `clm pause`, `abort`, `resume` and `unlock`: the implementation, loaded by their actions (controls.ts declares them).
import { hostname, userInfo } from 'node:os';
import { createRegistry } from '../../adapters/registry/create-registry';
import { closestMatch } from '../../core/model/did-you-mean';
import { leaseExpired, leaseExpiry } from '../../core/status/lease-state';
import type { ClusterControls, Lease } from '../../ports/progress-store';
import { UsageError, type CliIo } from '../io';
import { holderEnd } from '../lease-holder';
import { openStateStores, type StateStores } from '../state-stores';
import { usageAsync } from '../usage';
import type { ControlOptions } from './controls';

/** The progress store of `--state`, once the registry says it holds `cluster`: a control on a typo changes nothing. */
async function stores(cluster: string, options: ControlOptions, io: CliIo): Promise<StateStores> {
  return usageAsync(async () => {
    const registry = createRegistry(options.registry, {
      cwd: io.cwd,
      ...(options.token ? { token: options.token } : {}),
    });
    const known = (await registry.listClusters()).map((c) => c.id);
    if (!known.includes(cluster)) {
      const match = closestMatch(cluster, known);
      throw new UsageError(
        `${cluster}: no such cluster in the registry ${options.registry}${match ? ` (did you mean ${match}?)` : ''}; nothing changed`,
      );
    }
    return openStateStores(options.state, {
      cwd: io.cwd,
      fleet: false,
      ...(options.region ? { region: options.region } : {}),
    });
  });
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
  const state = await stores(cluster, options, io);
  const { progress: store, save } = state;
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
  const running =
    lease && leaseExpired(lease, state.clocks()) !== true ? ` (running now, held by ${lease.holder})` : '';
  const what = set.paused
    ? `paused${running ? `; the update stops at its next safe point${running}` : ''}`
    : set.abortRequested
      ? `aborted${running ? `; the update stops at its next safe point${running}` : ''}`
      : 'resumed: the next provision or dispatcher pass continues from the stored progress';
  io.stdout(`${cluster}: ${what}\n`);
}

export async function unlock(cluster: string, options: ControlOptions, io: CliIo): Promise<void> {
  const state = await stores(cluster, options, io);
  const { progress: store, save } = state;
  const lease = await store.getLease(cluster);
  if (!lease) {
    io.stdout(`${cluster}: no lease held\n`);
    return;
  }
  const why = await staleness(lease, state);
  if (!why.stale && !options.force)
    throw new UsageError(
      `${cluster}: the lease is held by ${lease.holder} until ${leaseExpiry(lease)}, which may still be running${why.detail ? ` (${why.detail})` : ''}; stop it first, or pass --force if you are sure it is gone`,
    );
  await store.releaseLease(cluster, lease.holder);
  save();
  io.stdout(`${cluster}: lease of ${lease.holder} broken (${why.stale ? why.detail : '--force'})\n`);
}

/**
 * A lease is stale when its holder is known to have ended, or it expired on the clock that wrote it: a `--simulate`
 * run's lease is in simulated time and is judged on the simulated world's clock, never on the real one.
 */
async function staleness(lease: Lease, state: StateStores): Promise<{ stale: boolean; detail?: string }> {
  const end = await holderEnd(lease.holder);
  if (end.gone) return { stale: true, ...(end.why ? { detail: end.why } : {}) };
  const expired = leaseExpired(lease, state.clocks());
  if (expired) return { stale: true, detail: 'it expired' };
  const unknownClock =
    expired === undefined
      ? `its expiry is in simulated time and ${state.location} holds no simulated world`
      : undefined;
  const detail = [end.why, unknownClock].filter(Boolean).join('; ');
  return { stale: false, ...(detail ? { detail } : {}) };
}
