import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { RegistryChangeRecord } from '../../core/dispatch/registry-changes';
import { REGISTRY_SORT_KEY, registryDocument } from './dynamodb-registry';

const PARTITION_PREFIX = 'CLUSTER#';
const EVENTS = new Set(['INSERT', 'MODIFY', 'REMOVE']);

/**
 * The registry items of a DynamoDB stream batch (the table's stream, view type NEW_AND_OLD_IMAGES), as
 * cluster documents. Other items of the shared table (progress, fleet, deliveries) are dropped here, so
 * the dispatcher's own writes never look like registry changes.
 */
export function registryChangeRecords(records: readonly DynamoDBRecord[]): RegistryChangeRecord[] {
  return records.flatMap((record): RegistryChangeRecord[] => {
    const keys = record.dynamodb?.Keys ? image(record.dynamodb.Keys) : {};
    const pk = typeof keys.pk === 'string' ? keys.pk : '';
    if (keys.sk !== REGISTRY_SORT_KEY || !pk.startsWith(PARTITION_PREFIX) || !EVENTS.has(record.eventName ?? '')) {
      return [];
    }
    const { NewImage, OldImage } = record.dynamodb ?? {};
    return [
      {
        eventName: record.eventName as RegistryChangeRecord['eventName'],
        clusterId: pk.slice(PARTITION_PREFIX.length),
        ...(NewImage ? { newDocument: registryDocument(image(NewImage)) } : {}),
        ...(OldImage ? { oldDocument: registryDocument(image(OldImage)) } : {}),
      },
    ];
  });
}

/** The Lambda event's attribute values have the SDK's shape, typed separately. */
function image(attributes: object): Record<string, unknown> {
  return unmarshall(attributes as Record<string, AttributeValue>);
}
