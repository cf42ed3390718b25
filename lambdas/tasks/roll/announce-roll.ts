import type { RollStepOutput, RolloutState } from '../../contracts/cluster-update';
import type { UpdateEvent } from '../../contracts/update-events';
import { drainBlocked, held, poolRollStarted, poolRolled, type EventOrigin } from '../../core/events/update-events';
import type { PoolProgress } from '../../core/model/run';
import { estimatedRollEnd } from '../../core/rollout/roll-eta';
import type { Ports } from '../../ports/ports';
import { announce } from '../events/announce';

/** A drain block is news once it has held this long (a refusal that clears within a poll or two is not). */
export const DRAIN_BLOCKED_NOTICE_MS = 5 * 60 * 1000;

/**
 * After a RollNodePool invocation: announce what its pool's stored progress says (the roll started, a drain blocked
 * for DRAIN_BLOCKED_NOTICE_MS, the pool rolled, the roll waits for a window) and put the roll's estimated end on the
 * step's output. Each event once per run (announce.ts), so a resumed execution repeats none of them.
 */
export async function announceRoll(
  ports: Pick<Ports, 'progress' | 'events' | 'clock'>,
  input: RolloutState,
  output: RollStepOutput,
): Promise<RollStepOutput> {
  const ref = { clusterId: input.clusterId, targetVersion: input.targetVersion, holder: input.holder };
  const run = await ports.progress.getRun(ref.clusterId, ref.targetVersion);
  const progress = run?.pools[output.pool];
  if (!progress) return output;
  const origin: EventOrigin = { ...ref, now: ports.clock.now() };
  await announce(ports, ref, rollEvents(origin, output, progress));
  const end = estimatedRollEnd(progress, origin.now);
  return end === undefined ? output : { ...output, estimatedEnd: new Date(end).toISOString() };
}

function rollEvents(origin: EventOrigin, output: RollStepOutput, progress: PoolProgress): UpdateEvent[] {
  const events: UpdateEvent[] = [];
  // A pool with nothing to replace (all nodes current when the child started) did not roll.
  if (progress.total > 0 || progress.status === 'rolling') events.push(poolRollStarted(origin, output.pool, progress));
  if (output.status === 'WINDOW') {
    const message = output.message;
    events.push(held(origin, { reason: 'window', message, ...(output.resumeAt ? { resumeAt: output.resumeAt } : {}) }));
  } else if (progress.blockedSince !== undefined && origin.now - progress.blockedSince >= DRAIN_BLOCKED_NOTICE_MS) {
    const blocked = drainBlocked(origin, output.pool, progress);
    if (blocked) events.push(blocked);
  }
  if (output.status === 'DONE' && progress.status === 'done' && progress.total > 0)
    events.push(poolRolled(origin, output.pool, progress));
  return events;
}
