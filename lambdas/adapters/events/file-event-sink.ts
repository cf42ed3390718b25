import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { FLEET_EVENT_SOURCE, type FleetEvent } from '../../contracts/fleet-events';
import { wireDetail } from '../../contracts/event-schemas';
import type { EventSink } from '../../ports/event-sink';

/** The name of the events file in a local state directory. */
export const EVENTS_FILE = 'events.jsonl';

/**
 * Events of local runs, one JSON line each, shaped as EventBridge delivers them to a rule's target (`source`,
 * `detail-type`, `time`, `detail` as sent), appended to a file (`<state>/events.jsonl`): `tail -f` follows a run, and
 * a script can forward the lines. Each line is written whole with one append.
 */
export class FileEventSink implements EventSink {
  constructor(
    private readonly file: string,
    private readonly now: () => number = Date.now,
  ) {}

  async publish(events: readonly FleetEvent[]): Promise<void> {
    if (!events.length) return;
    const lines = events.map((event) =>
      JSON.stringify({
        source: FLEET_EVENT_SOURCE,
        'detail-type': event.type,
        time: new Date(this.now()).toISOString(),
        detail: wireDetail(event),
      }),
    );
    mkdirSync(dirname(this.file), { recursive: true });
    appendFileSync(this.file, `${lines.join('\n')}\n`);
  }
}
