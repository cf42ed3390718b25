import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import { EventBridgeEventSink } from '../../../lambdas/adapters/aws/eventbridge-event-sink';
import { FleetEvent } from '../../../lambdas/contracts/fleet-events';
import { TransientApiError } from '../../../lambdas/shared/errors';
import { wireDetail } from '../../../lambdas/contracts/event-schemas';
import { schemaErrors } from '../../support/event-schemas';

const eventBridge = mockClient(EventBridgeClient);
const client = new EventBridgeClient({ region: 'eu-central-1' });

beforeEach(() => eventBridge.reset());

function blocked(i: number): FleetEvent {
  return {
    type: 'ClusterUpdateBlocked',
    detail: { clusterId: `c${i}`, currentVersion: 'v1#h', reason: 'paused', blockedBy: 'paused by an operator' },
  };
}

describe('EventBridgeEventSink', () => {
  it('sends events as clm.fleet with their type and contract (with version and id), ten per call', async () => {
    eventBridge.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [] });
    const sink = new EventBridgeEventSink({
      client,
      resources: ['arn:aws:lambda:eu-central-1:123456789012:function:clm-dispatch'],
    });
    await sink.publish(Array.from({ length: 12 }, (_, i) => blocked(i)));
    expect(eventBridge).toHaveReceivedCommandTimes(PutEventsCommand, 2);
    const first = eventBridge.commandCalls(PutEventsCommand)[0].args[0].input.Entries!;
    expect(first).toHaveLength(10);
    expect(first[0]).toEqual({
      Source: 'clm.fleet',
      DetailType: 'ClusterUpdateBlocked',
      Detail: JSON.stringify(wireDetail(blocked(0))),
      EventBusName: 'default',
      Resources: ['arn:aws:lambda:eu-central-1:123456789012:function:clm-dispatch'],
    });
    expect(FleetEvent.parse({ type: first[0].DetailType, detail: JSON.parse(first[0].Detail!) })).toEqual(blocked(0));
    // What the published schema promises: the detail as sent conforms.
    expect(
      schemaErrors({
        'detail-type': first[0].DetailType!,
        source: first[0].Source,
        detail: JSON.parse(first[0].Detail!),
      }),
    ).toEqual([]);
  });

  it('sends again only the entries EventBridge did not accept', async () => {
    eventBridge
      .on(PutEventsCommand)
      .resolvesOnce({
        FailedEntryCount: 1,
        Entries: [
          { EventId: '1' },
          { ErrorCode: 'ThrottlingException', ErrorMessage: 'Rate exceeded' },
          { EventId: '3' },
        ],
      })
      .resolves({ FailedEntryCount: 0, Entries: [{ EventId: '2' }] });
    await new EventBridgeEventSink({ client }).publish([blocked(1), blocked(2), blocked(3)]);
    const retry = eventBridge.commandCalls(PutEventsCommand)[1].args[0].input.Entries!;
    expect(retry.map((e) => JSON.parse(e.Detail!).clusterId)).toEqual(['c2']);
  });

  it('gives up after three attempts with a retryable error naming the events', async () => {
    eventBridge.on(PutEventsCommand).resolves({
      FailedEntryCount: 1,
      Entries: [{ ErrorCode: 'InternalFailure', ErrorMessage: 'try again' }],
    });
    const publish = new EventBridgeEventSink({ client }).publish([blocked(1)]);
    await expect(publish).rejects.toThrow(TransientApiError);
    await expect(new EventBridgeEventSink({ client }).publish([blocked(1)])).rejects.toThrow(
      /1 event\(s\) not accepted \(ClusterUpdateBlocked\): InternalFailure: try again/,
    );
    expect(eventBridge).toHaveReceivedCommandTimes(PutEventsCommand, 6);
  });
});
