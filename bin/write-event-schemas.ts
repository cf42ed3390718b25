// Writes the published JSON Schemas of CLM's events (docs/events/<type>.schema.json) from the zod contracts
// (lambdas/contracts/event-schemas.ts): `npm run events:schemas`. test/contracts/event-schemas.test.ts fails while the
// files differ from what this writes.
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLEET_EVENT_TYPES } from '../lambdas/contracts/fleet-events';
import { eventSchemaDocument } from '../lambdas/contracts/event-schemas';

export const SCHEMA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../docs/events');
export const schemaFile = (type: string) => resolve(SCHEMA_DIR, `${type}.schema.json`);
export const schemaText = (type: (typeof FLEET_EVENT_TYPES)[number]) =>
  `${JSON.stringify(eventSchemaDocument(type), null, 2)}\n`;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const type of FLEET_EVENT_TYPES) writeFileSync(schemaFile(type), schemaText(type));
  process.stdout.write(`${FLEET_EVENT_TYPES.length} schemas written to docs/events/\n`);
}
