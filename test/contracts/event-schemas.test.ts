// The published event schemas (docs/events/*.schema.json) are what the zod contracts generate, they use only
// keywords with one meaning in draft 4 (the EventBridge schema registry's) and draft 7 (Ajv's), and an event as the
// sinks send it conforms, while one that breaks the contract does not.
import { readdirSync } from 'node:fs';
import { FLEET_EVENT_TYPES, type FleetEvent } from '../../lambdas/contracts/fleet-events';
import { eventSchemaDocument, wireDetail } from '../../lambdas/contracts/event-schemas';
import { updateStarted, drainBlocked } from '../../lambdas/core/events/update-events';
import { SCHEMA_DIR, onTheWire, publishedSchema, schemaErrors } from '../support/event-schemas';

const SAME_IN_DRAFT_4_AND_7 = new Set([
  ...['$schema', 'title', 'description', 'type', 'properties', 'required', 'items', 'enum', 'format', 'pattern'],
  ...['minimum', 'maximum', 'minLength', 'maxLength', 'anyOf', 'oneOf', 'allOf', 'default'],
]);

function keywords(node: unknown, into: Set<string>, underProperties = false): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => keywords(n, into));
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (!underProperties) into.add(key);
      keywords(value, into, !underProperties && key === 'properties');
    }
  return into;
}

const origin = { clusterId: 'aws:1:eu-central-1:kube-1', targetVersion: 'c0ffee#abc', holder: 'exec-1', now: 0 };

describe('published event schemas', () => {
  it.each(FLEET_EVENT_TYPES)('docs/events/%s.schema.json is what the zod contract generates', (type) => {
    // Run `npm run events:schemas` after changing a contract in lambdas/contracts/.
    expect(publishedSchema(type)).toEqual(JSON.parse(JSON.stringify(eventSchemaDocument(type))));
  });

  it('publishes one schema per event type, and no other', () => {
    const files = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.schema.json'));
    expect(files.sort()).toEqual(FLEET_EVENT_TYPES.map((t) => `${t}.schema.json`).sort());
  });

  it.each(FLEET_EVENT_TYPES)('%s uses only keywords draft 4 and draft 7 read alike', (type) => {
    const used = [...keywords(publishedSchema(type), new Set())];
    expect(used.filter((k) => !SAME_IN_DRAFT_4_AND_7.has(k))).toEqual([]);
  });

  it('an event as sent conforms; a missing field, a wrong type or a wrong version does not', () => {
    const started = updateStarted(origin, {
      action: 'provision',
      previousVersion: '',
      resumed: false,
      trigger: 'cli',
      message: 'Creating kube-1',
    });
    const wire = onTheWire(started);
    expect(schemaErrors(wire)).toEqual([]);
    const detail = wire.detail as Record<string, unknown>;
    const { resumed: _gone, ...missing } = detail;
    expect(schemaErrors({ ...wire, detail: missing })).toEqual([expect.stringContaining("'resumed'")]);
    expect(schemaErrors({ ...wire, detail: { ...detail, resumed: 'no' } })).toEqual([
      '/detail/resumed must be boolean',
    ]);
    expect(schemaErrors({ ...wire, detail: { ...detail, version: 2 } })).not.toEqual([]);
    expect(schemaErrors({ ...wire, 'detail-type': 'UpdateStarted', source: 'other' })).not.toEqual([]);
    // A field added within the version is allowed: consumers ignore what they do not know.
    expect(schemaErrors({ ...wire, detail: { ...detail, later: 1 } })).toEqual([]);
  });

  it('a detail on the wire carries version 1 and a deterministic id; a dispatcher event gets a digest of its detail', () => {
    const blocked = drainBlocked({ ...origin, now: 600_000 }, 'workers', {
      status: 'rolling',
      total: 3,
      replaced: 1,
      nodes: {},
      steps: 4,
      startedAt: 0,
      blockedBy: 'PDB default/web allows 0 disruption(s) (2/3 healthy) for pod default/web-1',
      blockedSince: 300_000,
    })!;
    const again = drainBlocked({ ...origin, now: 900_000 }, 'workers', {
      status: 'rolling',
      total: 3,
      replaced: 1,
      nodes: {},
      steps: 5,
      startedAt: 0,
      blockedBy: 'PDB default/web allows 0 disruption(s) (2/3 healthy) for pod default/web-1',
      blockedSince: 300_000,
    })!;
    expect(wireDetail(blocked)).toEqual(
      expect.objectContaining({ version: 1, id: blocked.detail.id, pod: 'default/web-1', pdb: 'default/web' }),
    );
    expect(again.detail.id).toBe(blocked.detail.id);
    expect(schemaErrors(onTheWire(blocked))).toEqual([]);
    const halted: FleetEvent = {
      type: 'WaveHalted',
      detail: { configVersion: 'v1', wave: 'test', heldWaves: [], failed: [], failedCount: 1, reason: 'r' },
    };
    const id = wireDetail(halted).id;
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(wireDetail(JSON.parse(JSON.stringify(halted)) as FleetEvent).id).toBe(id);
    expect(schemaErrors(onTheWire(halted))).toEqual([]);
  });
});
