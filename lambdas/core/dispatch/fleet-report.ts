import type { SkipReason } from './assess-cluster';
import type { WaveHalt, WaveOverride } from './fleet-state';
import type { DispatchPlan } from './plan-dispatch';
import { shortVersion } from './waves';

const LISTED_PER_REASON = 5;

/** What `clm dispatch` prints: the summary, each start, the skips grouped by reason, the halts. */
export function formatDispatchPlan(plan: DispatchPlan): string {
  const { summary } = plan;
  const lines = [
    `${summary.clusters} clusters: ${summary.upToDate} up to date, ${summary.starts} started, ${summary.skipped} skipped; ${summary.running} running, room for ${summary.capacity}`,
  ];
  for (const start of plan.starts) {
    lines.push(`  start ${start.clusterId}: ${start.message} [${start.wave}] as ${start.executionName}`);
  }
  const byReason = new Map<SkipReason, DispatchPlan['skipped'][number][]>();
  for (const skip of plan.skipped) byReason.set(skip.reason, [...(byReason.get(skip.reason) ?? []), skip]);
  for (const [reason, skips] of byReason) {
    lines.push(`  skipped, ${reason} (${skips.length}):`);
    for (const skip of skips.slice(0, LISTED_PER_REASON)) lines.push(`    ${skip.clusterId}: ${skip.message}`);
    if (skips.length > LISTED_PER_REASON) lines.push(`    … and ${skips.length - LISTED_PER_REASON} more`);
  }
  lines.push(
    ...formatHalts(
      plan.halts,
      plan.rollouts.flatMap((r) => (r.overridden ? [r.overridden] : [])),
    ),
  );
  return lines.join('\n');
}

/** Halts and overrides, for `clm status` and `clm dispatch`. */
export function formatHalts(halts: readonly WaveHalt[], overrides: readonly WaveOverride[]): string[] {
  const lines: string[] = [];
  for (const halt of halts) {
    const held = halt.heldWaves.length ? `; holding ${halt.heldWaves.join(', ')}` : '';
    lines.push(`  HALTED at ${shortVersion(halt.configVersion)}, wave ${halt.wave}${held}: ${halt.reason}`);
  }
  for (const override of overrides) {
    lines.push(
      `  override at ${shortVersion(override.configVersion)} by ${override.by} (${new Date(override.at).toISOString()}): ${override.reason}`,
    );
  }
  return lines;
}

/** The halt that holds a cluster back, if any: one line for its `clm status` entry. */
export function haltLine(
  cluster: { readonly id: string; readonly targetVersion?: string },
  halts: readonly WaveHalt[],
): string | undefined {
  const configVersion = cluster.targetVersion?.split('#')[0];
  const halt = halts.find((h) => h.configVersion === configVersion);
  if (!halt) return undefined;
  const own = halt.failed.some((f) => f.clusterId === cluster.id);
  return own
    ? `  its failure halts wave ${halt.wave} at ${shortVersion(halt.configVersion)}`
    : `  held: wave ${halt.wave} halted at ${shortVersion(halt.configVersion)}: ${halt.reason}`;
}
