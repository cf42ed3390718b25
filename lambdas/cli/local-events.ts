import { resolve } from 'node:path';
import { EVENTS_FILE, FileEventSink } from '../adapters/events/file-event-sink';
import type { EventSink } from '../ports/event-sink';
import { stateTable } from './state-stores';

/**
 * Where a local run against AWS sends the update's events: with `--state dynamodb://TABLE` (the deployed system's
 * progress) to EventBridge's default bus of the region, as the deployed tasks do, so subscribers hear of a laptop run
 * too; with a state directory to `<state>/events.jsonl`.
 */
export async function localEventSink(state: string, cwd: string, region: string): Promise<EventSink> {
  if (!stateTable(state)) return new FileEventSink(resolve(cwd, state, EVENTS_FILE));
  const [{ EventBridgeClient }, { EventBridgeEventSink }] = await Promise.all([
    import('@aws-sdk/client-eventbridge'),
    import('../adapters/aws/eventbridge-event-sink'),
  ]);
  return new EventBridgeEventSink({ client: new EventBridgeClient({ region }) });
}
