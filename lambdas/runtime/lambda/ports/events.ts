import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { EventBridgeEventSink } from '../../../adapters/aws/eventbridge-event-sink';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { traced } from '../tracing';

/** Port module of the fleet events, on the account's default EventBridge bus (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return {
    events: () =>
      new EventBridgeEventSink({
        client: traced(
          new EventBridgeClient({ region: env.region, ...(env.endpoint ? { endpoint: env.endpoint } : {}) }),
        ),
      }),
  };
}
