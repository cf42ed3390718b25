import type { FleetEvent } from '../contracts/fleet-events';

/** Where the fleet's events go (EventBridge's default bus in AWS; the log or a list locally). */
export interface EventSink {
  publish(events: readonly FleetEvent[]): Promise<void>;
}
