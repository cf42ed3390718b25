// The published JSON Schemas of CLM's events (docs/events/*.schema.json), compiled once with Ajv, to check events as
// they go on the wire against what subscribers were promised.
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { FLEET_EVENT_SOURCE, type FleetEvent, type FleetEventType } from '../../lambdas/contracts/fleet-events';
import { wireDetail } from '../../lambdas/contracts/event-schemas';

export const SCHEMA_DIR = resolve(__dirname, '../../docs/events');

export function publishedSchema(type: string): Record<string, unknown> {
  return JSON.parse(readFileSync(resolve(SCHEMA_DIR, `${type}.schema.json`), 'utf8')) as Record<string, unknown>;
}

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const compiled = new Map<string, ValidateFunction>();

/**
 * The published schema of `type`, compiled. The files are draft 4 (the EventBridge schema registry's format); they use
 * only keywords that mean the same in draft 4 and draft 7 (test/contracts/event-schemas.test.ts checks), so Ajv's
 * draft 7 validates them exactly.
 */
export function validatorOf(type: string): ValidateFunction {
  let validate = compiled.get(type);
  if (!validate) {
    const { $schema: _draft4, ...schema } = publishedSchema(type);
    validate = ajv.compile(schema);
    compiled.set(type, validate);
  }
  return validate;
}

/** An event as EventBridge delivers it (the parts the schema covers): `source`, `detail-type`, the detail as sent. */
export function onTheWire(event: FleetEvent): { source: string; 'detail-type': FleetEventType; detail: unknown } {
  return { source: FLEET_EVENT_SOURCE, 'detail-type': event.type, detail: wireDetail(event) };
}

/** The schema errors of one event as sent ([] when it conforms). */
export function schemaErrors(wire: { readonly 'detail-type': string; readonly [field: string]: unknown }): string[] {
  const validate = validatorOf(wire['detail-type']);
  return validate(wire) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
