import type { DispatchReport } from '../../contracts/dispatch-report';
import type { WaveHalt, WaveOverride } from './fleet-state';
import { shortVersion } from './waves';

const HOW: Record<DispatchReport['starts'][number]['how'], string> = {
  planned: '',
  started: '',
  redriven: ' (redriven)',
  'already-running': ' (already running: started by another pass)',
  'not-started': ' (not started: every attempt name is taken)',
  throttled: ' (not started: Step Functions throttled StartExecution; the next pass starts it)',
};

/** What `clm dispatch` prints: the summary, each start, the skips grouped by reason, the halts. */
export function formatDispatchReport(report: DispatchReport): string {
  const { summary } = report;
  const lines = [
    `${summary.clusters} clusters: ${summary.upToDate} up to date, ${summary.behindTarget} behind target, ${summary.starts} started, ${summary.skipped} skipped; ${summary.running} running, room for ${summary.capacity}`,
  ];
  if (report.throttles > 0)
    lines.push(`  ${report.throttles} throttled StartExecution answers, each tried again after a back-off`);
  for (const missed of report.missedPushes ?? []) {
    lines.push(
      `  missed push: ${missed.source} ${missed.ref} moved ${missed.previous.slice(0, 12)} → ${missed.commit.slice(0, 12)} without a webhook; dispatched now`,
    );
  }
  if (report.registry) {
    const { added, modified, removed, ignored } = report.registry;
    lines.push(
      `  registry: ${added} added, ${modified} modified, ${removed} removed, ${ignored} without a hashed change`,
    );
  }
  for (const start of report.starts) {
    lines.push(
      `  start ${start.clusterId}: ${start.message} [${start.wave}] as ${start.executionName}${HOW[start.how]}`,
    );
  }
  for (const group of report.skipped) {
    lines.push(`  skipped, ${group.reason} (${group.count}):`);
    for (const skip of group.clusters) lines.push(`    ${skip.clusterId}: ${skip.message}`);
    if (group.count > group.clusters.length) lines.push(`    … and ${group.count - group.clusters.length} more`);
  }
  lines.push(...formatHalts(report.halts, report.overrides));
  if (report.drift) {
    const { checked, clusters } = report.drift;
    lines.push(`  drift: ${checked} cluster(s) checked, ${clusters.length} drifted`);
    for (const c of clusters)
      lines.push(`    ${c.clusterId} (${c.mode}): ${c.repaired ? '' : 'reported: '}${c.message}`);
  }
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
