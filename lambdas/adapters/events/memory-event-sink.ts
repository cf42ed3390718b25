import type { FleetEvent } from '../../contracts/fleet-events';
import type { EventSink } from '../../ports/event-sink';

/** Keeps every event in order (the CLI prints them; tests read them), and hands each to `onEvent`. */
export class MemoryEventSink implements EventSink {
  readonly events: FleetEvent[] = [];

  constructor(private readonly onEvent?: (event: FleetEvent) => void) {}

  async publish(events: readonly FleetEvent[]): Promise<void> {
    for (const event of events) {
      this.events.push(event);
      this.onEvent?.(event);
    }
  }

  /** The events of one type, in order. */
  ofType<T extends FleetEvent['type']>(type: T): Extract<FleetEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<FleetEvent, { type: T }> => e.type === type);
  }
}
