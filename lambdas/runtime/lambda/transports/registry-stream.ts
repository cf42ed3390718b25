import type { DynamoDBRecord } from 'aws-lambda';
import { registryChangeRecords } from '../../../adapters/registry/registry-stream-records';
import type { RegistryChanges } from '../../../contracts/triggers';
import type { Transport } from './transport';

/** A DynamoDB stream batch as the registry items it changed (other items of the table are dropped). */
export const transport: Transport = {
  accepts: (event) => Array.isArray((event as { Records?: unknown } | null)?.Records),
  input: (event): RegistryChanges => ({
    trigger: 'registry',
    changes: registryChangeRecords((event as { Records: DynamoDBRecord[] }).Records),
  }),
  output: (result) => result,
};
