import * as z from '../shared/zod';

/**
 * Node incidents of a simulation scenario (`nodeIncidents:`): at a virtual time, some nodes of a cluster stop
 * reporting. README "Node incidents" in lambdas/sim/README.md; the world applies them in sim/kube/node-incidents.ts.
 */
export const NodeIncident = z.strictObject({
  /** `kubelet-stopped`: the kubelet died; `unreachable`: the instance is cut off from the API server (EC2's status checks still pass, so the Auto Scaling group does not replace it). */
  kind: z.enum(['kubelet-stopped', 'unreachable']),
  /** Virtual seconds after the world's start (`startTime`) when it happens. */
  atSeconds: z.number().check(z.nonnegative()),
  /** Only this cluster (default: every cluster with nodes then). */
  cluster: z.optional(z.string().check(z.minLength(1))),
  /** Only nodes of this pool (default: any worker pool). */
  pool: z.optional(z.string().check(z.minLength(1))),
  /** How many of the pool's Ready nodes fail, oldest first: a count or a percentage such as "50%". */
  nodes: z._default(
    z.union([
      z.number().check(z.int(), z.positive()),
      z.string().check(z.regex(/^\d+%$/, 'expected a count or a percentage like "50%"')),
    ]),
    1,
  ),
});
export type NodeIncident = z.infer<typeof NodeIncident>;

export const NodeIncidents = z._default(z.array(NodeIncident), []);
