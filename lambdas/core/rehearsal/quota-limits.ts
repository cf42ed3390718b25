import type { SnapshotQuota } from './cluster-snapshot';

/**
 * The surge against one of the account's On-Demand vCPU quotas: the vCPUs the surge needs, the limit and what the
 * account's instances hold (from the snapshot), the headroom left, and whether the surge fits in it. Where the limit
 * could not be read, `unknown` says why and there is no verdict.
 */
export interface QuotaLimit {
  readonly code: string;
  readonly name: string;
  /** vCPUs the surge needs of this quota (its pools' surge). */
  readonly needed: number;
  readonly limit?: number;
  readonly inUse?: number;
  /** limit − inUse (never below 0). */
  readonly headroom?: number;
  readonly fits?: boolean;
  readonly unknown?: string;
}

/** One entry per quota the surge counts against (or the snapshot read), the surge's vCPUs summed per quota. */
export function quotaLimits(
  pools: readonly { readonly vcpu: number; readonly quota?: string }[],
  quotas: readonly SnapshotQuota[],
): QuotaLimit[] {
  const needed = new Map<string, number>();
  for (const p of pools) if (p.quota) needed.set(p.quota, (needed.get(p.quota) ?? 0) + p.vcpu);
  return quotas
    .filter((q) => needed.has(q.code))
    .map((q) => {
      const need = needed.get(q.code)!;
      const base = { code: q.code, name: q.name, needed: need };
      if (q.limit === undefined) return { ...base, unknown: q.unknown ?? 'the limit was not read' };
      if (q.inUse === undefined)
        return { ...base, limit: q.limit, unknown: 'the vCPUs the account runs were not read' };
      const headroom = Math.max(0, q.limit - q.inUse);
      return { ...base, limit: q.limit, inUse: q.inUse, headroom, fits: need <= headroom };
    });
}
