import { PutEventsCommand, type EventBridgeClient, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { FLEET_EVENT_SOURCE, type FleetEvent } from '../../contracts/fleet-events';
import { wireDetail } from '../../contracts/event-schemas';
import type { EventSink } from '../../ports/event-sink';
import { TransientApiError } from '../../shared/errors';
import { toClmError } from './aws-errors';

export interface EventBridgeEventSinkOptions {
  readonly client: EventBridgeClient;
  /** @default 'default' */
  readonly eventBusName?: string;
  /** `resources` of every event, e.g. the dispatcher's state machine or function ARN. */
  readonly resources?: readonly string[];
}

/** PutEvents takes at most 10 entries per call. */
const BATCH = 10;
const ATTEMPTS = 3;

/**
 * Fleet events on an EventBridge bus: `source` clm.fleet, `detail-type` the event type, `detail` its
 * contract with `version` and `id` (event-schemas.ts wireDetail). Entries EventBridge reports as failed (throttling, an internal error) are sent again, twice;
 * what still fails is a TransientApiError naming the event types.
 */
export class EventBridgeEventSink implements EventSink {
  constructor(private readonly options: EventBridgeEventSinkOptions) {}

  async publish(events: readonly FleetEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += BATCH) {
      await this.send(events.slice(i, i + BATCH).map((event) => this.entry(event)));
    }
  }

  private entry(event: FleetEvent): PutEventsRequestEntry {
    return {
      Source: FLEET_EVENT_SOURCE,
      DetailType: event.type,
      Detail: JSON.stringify(wireDetail(event)),
      EventBusName: this.options.eventBusName ?? 'default',
      ...(this.options.resources?.length ? { Resources: [...this.options.resources] } : {}),
    };
  }

  private async send(entries: PutEventsRequestEntry[]): Promise<void> {
    let pending = entries;
    for (let attempt = 1; ; attempt++) {
      let result;
      try {
        result = await this.options.client.send(new PutEventsCommand({ Entries: pending }));
      } catch (error) {
        throw toClmError(error, `EventBridge PutEvents (${pending.length} events)`);
      }
      if (!result.FailedEntryCount) return;
      const failed = (result.Entries ?? []).flatMap((entry, i) =>
        entry.ErrorCode ? [{ entry: pending[i], error: entry }] : [],
      );
      pending = failed.map((f) => f.entry);
      if (attempt >= ATTEMPTS) {
        const first = failed[0]?.error;
        throw new TransientApiError(
          `EventBridge PutEvents: ${failed.length} event(s) not accepted (${failed.map((f) => f.entry.DetailType).join(', ')}): ${first?.ErrorCode}: ${first?.ErrorMessage}`,
        );
      }
    }
  }
}
