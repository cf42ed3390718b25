import * as z from 'zod';

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
  failedCount: z.number().int(),
  since: z.number(),
  reason: z.string(),
});

const override = z.object({ configVersion: z.string(), reason: z.string(), by: z.string(), at: z.number() });

export const DispatchReport = z.object({
  /** webhook, schedule, execution, registry, cli. */
  trigger: z.string(),
  summary: z.object({
    clusters: z.number().int(),
    upToDate: z.number().int(),
    /** Clusters (not decommissioned) whose current version is not their target. */
    behindTarget: z.number().int(),
    running: z.number().int(),
    capacity: z.number().int(),
    starts: z.number().int(),
    skipped: z.number().int(),
  }),
  starts: z.array(
    z.object({
      clusterId: z.string(),
      action: z.enum(['update', 'decommission']),
      targetVersion: z.string(),
      executionName: z.string(),
      wave: z.string(),
      message: z.string(),
      attempt: z.number().int(),
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
      count: z.number().int(),
      clusters: z.array(z.object({ clusterId: z.string(), message: z.string() })),
    }),
  ),
  halts: z.array(halt),
  overrides: z.array(override),
  /** What the registry changed since the last poll, or in the stream batch. */
  registry: z
    .object({
      added: z.number().int(),
      modified: z.number().int(),
      removed: z.number().int(),
      /** Records that changed nothing hashed (status writes, alias or owner edits). */
      ignored: z.number().int(),
      /** The first 100 changed (added or modified) clusters. */
      changed: z.array(z.string()),
    })
    .optional(),
  /** Cluster states another pass wrote first (judged again by the next pass). */
  conflicts: z.number().int(),
  /** Throttled StartExecution and RedriveExecution answers, each tried again after a back-off (not failures). */
  throttles: z.number().int().default(0),
});
export type DispatchReport = z.infer<typeof DispatchReport>;
