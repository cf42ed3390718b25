import * as z from '../shared/zod';

/**
 * What one dispatcher pass decided and did (the DispatchFleet and RegistryChanged tasks' output, what
 * `clm dispatch` prints, what `clm serve` logs). Lists that grow with the fleet are cut: skips keep a count per
 * reason and the first few clusters.
 */

const halt = z.object({
  configVersion: z.string(),
  wave: z.string(),
  heldWaves: z.array(z.string()),
  failed: z.array(z.object({ clusterId: z.string(), targetVersion: z.string(), error: z.string() })),
  failedCount: z.number().check(z.int()),
  since: z.number(),
  reason: z.string(),
});

const override = z.object({ configVersion: z.string(), reason: z.string(), by: z.string(), at: z.number() });

export const DispatchReport = z.object({
  /** webhook, schedule, execution, registry, cli. */
  trigger: z.string(),
  summary: z.object({
    clusters: z.number().check(z.int()),
    upToDate: z.number().check(z.int()),
    /** Clusters (not decommissioned) whose current version is not their target. */
    behindTarget: z.number().check(z.int()),
    running: z.number().check(z.int()),
    capacity: z.number().check(z.int()),
    starts: z.number().check(z.int()),
    skipped: z.number().check(z.int()),
  }),
  starts: z.array(
    z.object({
      clusterId: z.string(),
      action: z.enum(['update', 'decommission']),
      targetVersion: z.string(),
      executionName: z.string(),
      wave: z.string(),
      message: z.string(),
      attempt: z.number().check(z.int()),
      /**
       * What the execution service did; `not-started` when every attempt's name was taken, `throttled` when Step
       * Functions still throttled after the back-off (the next pass starts it).
       */
      how: z.enum(['planned', 'started', 'redriven', 'already-running', 'not-started', 'throttled']),
    }),
  ),
  skipped: z.array(
    z.object({
      reason: z.string(),
      count: z.number().check(z.int()),
      clusters: z.array(z.object({ clusterId: z.string(), message: z.string() })),
    }),
  ),
  halts: z.array(halt),
  overrides: z.array(override),
  /** What the registry changed since the last poll, or in the stream batch. */
  registry: z.optional(
    z.object({
      added: z.number().check(z.int()),
      modified: z.number().check(z.int()),
      removed: z.number().check(z.int()),
      /** Records that changed nothing hashed (status writes, alias or owner edits). */
      ignored: z.number().check(z.int()),
      /** The first 100 changed (added or modified) clusters. */
      changed: z.array(z.string()),
    }),
  ),
  /** Cluster states another pass wrote first (judged again by the next pass). */
  conflicts: z.number().check(z.int()),
  /** Throttled StartExecution and RedriveExecution answers, each tried again after a back-off (not failures). */
  throttles: z._default(z.number().check(z.int()), 0),
  /** The drift check of this pass (`manifest_drift`; scheduled and `clm dispatch` passes only). */
  drift: z.optional(
    z.object({
      /** Clusters looked at (one LIST per manifest kind each). */
      checked: z.number().check(z.int()),
      clusters: z.array(
        z.object({
          clusterId: z.string(),
          mode: z.enum(['repair', 'report']),
          repaired: z.boolean(),
          objects: z.number().check(z.int()),
          message: z.string(),
        }),
      ),
    }),
  ),
  /** The fleet page this pass wrote (`s3://bucket/fleet/index.html`), or why it could not (the last one stays). */
  fleetPage: z.optional(z.union([z.object({ written: z.string() }), z.object({ failed: z.string() })])),
  /** Refs clusters follow whose head moved without a webhook delivery: found by the scheduled pass, dispatched by it. */
  missedPushes: z.optional(
    z.array(z.object({ source: z.string(), ref: z.string(), commit: z.string(), previous: z.string() })),
  ),
});
export type DispatchReport = z.infer<typeof DispatchReport>;
