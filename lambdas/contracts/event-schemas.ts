import { createHash } from 'node:crypto';
import * as z from '../shared/zod';
import * as F from './fleet-events';
import * as U from './update-events';

/**
 * What goes on the wire for each event (EventBridge's `detail`, a line of the CLI's events file): the contract's detail
 * with `version` (the detail's schema version) and `id` (deterministic: the update events' own, else a digest of the
 * type and detail). Within a version fields are only added, never renamed or removed; a change that would break a
 * consumer is a new version. The published JSON Schemas (docs/events/, the EventBridge schema registry) are generated
 * from these (eventSchemaDocument), and a test keeps the checked-in files equal to them.
 */
export const EVENT_DETAILS = {
  ClusterUpdateStarted: F.ClusterUpdateStarted,
  ClusterUpdateSucceeded: F.ClusterUpdateSucceeded,
  ClusterUpdateFailed: F.ClusterUpdateFailed,
  ClusterUpdateBlocked: F.ClusterUpdateBlocked,
  WaveHalted: F.WaveHalted,
  PushAccepted: F.PushAccepted,
  PullRequestAccepted: F.PullRequestAccepted,
  ManifestDrift: F.ManifestDrift,
  UpdateStarted: U.UpdateStarted,
  ApprovalRequested: U.ApprovalRequested,
  Held: U.Held,
  PoolRollStarted: U.PoolRollStarted,
  PoolRolled: U.PoolRolled,
  DrainBlocked: U.DrainBlocked,
  UpdateSucceeded: U.UpdateSucceeded,
  UpdateFailed: U.UpdateFailed,
} as const satisfies Record<F.FleetEventType, z.ZodMiniObject>;

/** Every detail's schema version; bump one only with a breaking change (and keep sending the old one a while). */
export const EVENT_VERSION = 1;

/** The detail as sent. */
export function wireDetail(event: F.FleetEvent): Record<string, unknown> {
  const detail = event.detail as Record<string, unknown>;
  const id =
    typeof detail.id === 'string'
      ? detail.id
      : createHash('sha256')
          .update(JSON.stringify([event.type, detail]))
          .digest('hex')
          .slice(0, 32);
  return { ...detail, version: EVENT_VERSION, id };
}

/** The zod schema of a detail as sent. */
export function wireDetailSchema(type: F.FleetEventType) {
  return z.extend(EVENT_DETAILS[type], {
    version: z.literal(EVENT_VERSION),
    id: z.string().check(z.regex(/^[0-9a-f]{32}$/)),
  });
}

/** The EventBridge schema registry's name, and each schema's: `clm.fleet@<type>`. */
export const EVENT_REGISTRY_NAME = 'clm-events';
export const eventSchemaName = (type: F.FleetEventType) => `${F.FLEET_EVENT_SOURCE}@${type}`;

/**
 * The published JSON Schema (draft 4, what the EventBridge schema registry takes) of one event type: the whole
 * EventBridge event, with `source`, `detail-type` and the detail as sent. Unknown fields are allowed (a consumer must
 * ignore fields added within a version).
 */
export function eventSchemaDocument(type: F.FleetEventType): Record<string, unknown> {
  const detail = openObjects(z.toJSONSchema(wireDetailSchema(type), { target: 'draft-4', io: 'output' }));
  delete detail.$schema;
  return {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: type,
    description: `CLM event ${type}, detail version ${EVENT_VERSION} (docs/events.md)`,
    type: 'object',
    required: ['source', 'detail-type', 'detail'],
    properties: {
      source: { type: 'string', enum: [F.FLEET_EVENT_SOURCE] },
      'detail-type': { type: 'string', enum: [type] },
      detail,
    },
  };
}

/** Drop `additionalProperties: false` everywhere: a later release adds fields within the version. */
function openObjects(schema: unknown): Record<string, unknown> {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
        .map(([key, value]) => [key, walk(value)]),
    );
  };
  return walk(schema) as Record<string, unknown>;
}
