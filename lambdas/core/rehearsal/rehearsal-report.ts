import type { LearnedTimings, SnapshotQuota } from './cluster-snapshot';
import { quotaLimits, type QuotaLimit } from './quota-limits';

/** What one rehearsal run of the update in the twin showed. */
export interface RunObservation {
  readonly seed: number;
  readonly status: 'SUCCEEDED' | 'FAILED';
  readonly error?: string;
  /** Virtual seconds from the update's start to its end. */
  readonly durationSeconds: number;
  readonly pools: readonly {
    readonly pool: string;
    readonly seconds: number;
    readonly nodes: number;
    readonly batches: number;
  }[];
  /** PDBs that refused an eviction, from the first refusal until an eviction they cover went through (or the end). */
  readonly pdbBlocks: readonly {
    readonly namespace: string;
    readonly name: string;
    readonly seconds: number;
    readonly pods: readonly string[];
  }[];
  /** Pods deleted past their PDB once the drain reached its force deadline. */
  readonly forced: readonly string[];
  /** Pods Pending longer than a start takes, the longest spell, and why the scheduler could not place them. */
  readonly pending: readonly { readonly pod: string; readonly seconds: number; readonly reason: string }[];
  /**
   * The most instances a pool ran, or was asked to run, above its size before the update, their vCPUs and the
   * On-Demand vCPU quota they count against.
   */
  readonly surge: readonly {
    readonly pool: string;
    readonly instances: number;
    readonly vcpu: number;
    readonly quota?: string;
  }[];
  readonly transitions: number;
}

export interface Spread {
  readonly p50: number;
  readonly p90: number;
}

/** The rehearsal of an update: several seeded runs with varied timings, summarised. */
export interface Rehearsal {
  readonly runs: number;
  readonly failedRuns: number;
  readonly errors: readonly string[];
  readonly durationSeconds: Spread;
  readonly pools: readonly {
    readonly pool: string;
    readonly nodes: number;
    readonly batches: number;
    readonly durationSeconds: Spread;
  }[];
  readonly pdbBlocks: readonly {
    readonly namespace: string;
    readonly name: string;
    /** In how many runs it blocked. */
    readonly runs: number;
    readonly seconds: Spread;
    readonly pods: readonly string[];
  }[];
  readonly forcedDrains: readonly { readonly pod: string; readonly runs: number }[];
  readonly pending: readonly {
    readonly pod: string;
    readonly reason: string;
    readonly runs: number;
    readonly seconds: Spread;
  }[];
  readonly surge: {
    readonly instances: number;
    readonly vcpu: number;
    readonly pools: readonly { readonly pool: string; readonly instances: number; readonly vcpu: number }[];
    /** Per On-Demand vCPU quota the surge counts against: the account's limit and use where known, and the verdict. */
    readonly limits?: readonly QuotaLimit[];
  };
  readonly transitions: number;
  /** Step Functions standard workflows: $0.025 per 1,000 state transitions. */
  readonly dollars: number;
  readonly timings: LearnedTimings;
  /** What the twin did not model for this cluster (scheduling constraints it approximates, figures defaulted). */
  readonly notes: readonly string[];
}

export const USD_PER_TRANSITION = 0.000025;

/** Nearest-rank percentile of `values` (0 when there are none). */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function spread(values: readonly number[]): Spread {
  return { p50: Math.round(percentile(values, 50)), p90: Math.round(percentile(values, 90)) };
}

function grouped<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

type Used = readonly RunObservation[];

function poolsOf(used: Used): Rehearsal['pools'] {
  return [
    ...grouped(
      used.flatMap((o) => o.pools),
      (p) => p.pool,
    ),
  ].map(([pool, runs]) => ({
    pool,
    nodes: Math.max(...runs.map((r) => r.nodes)),
    batches: Math.round(
      percentile(
        runs.map((r) => r.batches),
        50,
      ),
    ),
    durationSeconds: spread(runs.map((r) => r.seconds)),
  }));
}

function blocksOf(used: Used): Rehearsal['pdbBlocks'] {
  return [
    ...grouped(
      used.flatMap((o) => o.pdbBlocks),
      (b) => `${b.namespace}/${b.name}`,
    ),
  ]
    .map(([, blocks]) => ({
      namespace: blocks[0]!.namespace,
      name: blocks[0]!.name,
      runs: blocks.length,
      seconds: spread(blocks.map((b) => b.seconds)),
      pods: [...new Set(blocks.flatMap((b) => b.pods))].sort(),
    }))
    .sort((a, b) => b.seconds.p50 - a.seconds.p50);
}

function pendingOf(used: Used): Rehearsal['pending'] {
  return [
    ...grouped(
      used.flatMap((o) => o.pending),
      (p) => p.pod,
    ),
  ]
    .map(([pod, spells]) => ({
      pod,
      reason: spells[0]!.reason,
      runs: spells.length,
      seconds: spread(spells.map((s) => s.seconds)),
    }))
    .sort((a, b) => b.seconds.p50 - a.seconds.p50);
}

function surgeOf(used: Used, quotas: readonly SnapshotQuota[] | undefined): Rehearsal['surge'] {
  const pools = [
    ...grouped(
      used.flatMap((o) => o.surge),
      (s) => s.pool,
    ),
  ].map(([pool, s]) => ({
    pool,
    instances: Math.max(...s.map((x) => x.instances)),
    vcpu: Math.max(...s.map((x) => x.vcpu)),
    quota: s.find((x) => x.quota)?.quota,
  }));
  const limits = quotas ? quotaLimits(pools, quotas) : [];
  return {
    instances: pools.reduce((n, p) => n + p.instances, 0),
    vcpu: pools.reduce((n, p) => n + p.vcpu, 0),
    pools: pools.map(({ quota: _quota, ...pool }) => pool),
    ...(limits.length ? { limits } : {}),
  };
}

/** The runs summarised: percentiles across the runs that succeeded, and every block, force and Pending pod seen. */
export function summarise(
  observations: readonly RunObservation[],
  context: {
    readonly timings: LearnedTimings;
    readonly notes: readonly string[];
    /** The account's vCPU quotas the snapshot read (absent: not read, no verdict). */
    readonly quotas?: readonly SnapshotQuota[];
  },
): Rehearsal {
  const ok = observations.filter((o) => o.status === 'SUCCEEDED');
  const used = ok.length ? ok : observations;
  const transitions = Math.round(
    percentile(
      used.map((o) => o.transitions),
      50,
    ),
  );
  return {
    runs: observations.length,
    failedRuns: observations.length - ok.length,
    errors: [...new Set(observations.flatMap((o) => (o.error ? [o.error] : [])))],
    durationSeconds: spread(used.map((o) => o.durationSeconds)),
    pools: poolsOf(used),
    pdbBlocks: blocksOf(used),
    forcedDrains: [
      ...grouped(
        used.flatMap((o) => o.forced),
        (p) => p,
      ),
    ].map(([pod, runs]) => ({ pod, runs: runs.length })),
    pending: pendingOf(used),
    surge: surgeOf(used, context.quotas),
    transitions,
    dollars: Number((transitions * USD_PER_TRANSITION).toFixed(6)),
    timings: context.timings,
    notes: context.notes,
  };
}
