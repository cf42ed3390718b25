import type { UpdateEvent } from '../../contracts/update-events';
import type { Ports } from '../../ports/ports';
import { updateRun, type RunRef } from '../step/run-record';

/** How many event ids a run record remembers (the oldest are forgotten first; a run sends far fewer). */
export const ANNOUNCED_CAP = 200;

type AnnouncePorts = Pick<Ports, 'progress' | 'events' | 'clock'>;

/**
 * Send a run's events once: those whose id the run record already lists are dropped, the others are published and
 * then listed. A step retried after publishing but before listing sends the same ids again (consumers drop repeats
 * by `id`, docs/events.md); a resumed execution, or a retried step after both, sends nothing twice. Without a run
 * record (a run that never started) the events are published as they are.
 */
export async function announce(ports: AnnouncePorts, ref: RunRef, events: readonly UpdateEvent[]): Promise<void> {
  if (!events.length) return;
  const run = await ports.progress.getRun(ref.clusterId, ref.targetVersion);
  const known = new Set(run?.announced ?? []);
  const fresh = events.filter((event) => !known.has(event.detail.id));
  if (!fresh.length) return;
  await ports.events.publish(fresh);
  if (!run) return;
  await updateRun(ports, ref, (r) => {
    const listed = [
      ...(r.announced ?? []),
      ...fresh.map((e) => e.detail.id).filter((id) => !r.announced?.includes(id)),
    ];
    return { ...r, announced: listed.slice(-ANNOUNCED_CAP) };
  });
}
