import * as z from '../shared/zod';

const seconds = z.number().check(z.minimum(0));
const Spread = z.object({ p50: seconds, p90: seconds });
const count = z.number().check(z.int(), z.minimum(0));

/**
 * A rehearsal as `clm plan --rehearse --output json` prints it under `rehearsal` (core/rehearsal/rehearsal-report.ts
 * says what each figure means): the output of PlanUpdate with `rehearse: true` carries it beside the plan's summary.
 */
export const Rehearsal = z.object({
  runs: count,
  failedRuns: count,
  errors: z.array(z.string()),
  durationSeconds: Spread,
  pools: z.array(z.object({ pool: z.string(), nodes: count, batches: count, durationSeconds: Spread })),
  pdbBlocks: z.array(
    z.object({ namespace: z.string(), name: z.string(), runs: count, seconds: Spread, pods: z.array(z.string()) }),
  ),
  forcedDrains: z.array(z.object({ pod: z.string(), runs: count })),
  pending: z.array(z.object({ pod: z.string(), reason: z.string(), runs: count, seconds: Spread })),
  surge: z.object({
    instances: count,
    vcpu: seconds,
    pools: z.array(z.object({ pool: z.string(), instances: count, vcpu: seconds })),
    limits: z.optional(
      z.array(
        z.object({
          code: z.string(),
          name: z.string(),
          needed: seconds,
          limit: z.optional(seconds),
          inUse: z.optional(seconds),
          headroom: z.optional(seconds),
          fits: z.optional(z.boolean()),
          unknown: z.optional(z.string()),
        }),
      ),
    ),
  }),
  transitions: count,
  dollars: seconds,
  timings: z.looseObject({
    stackUpdateSeconds: seconds,
    instanceBootSeconds: seconds,
    nodeReadySeconds: seconds,
  }),
  notes: z.array(z.string()),
});
