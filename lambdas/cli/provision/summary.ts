import type { Cluster } from '../../core/model/cluster';
import { ClusterUpdateOutput } from '../../contracts/cluster-update';
import type { ExecutionResult } from '../../runtime/local/run-cluster-update';
import type { Invariants } from '../../sim';
import type { RunRecord } from '../../core/model/run';
import { withStoredStatus } from '../../tasks/step/cluster-status';
import type { CliWorld } from '../cli-world';
import { formatDuration } from './progress-line';

export interface ClusterSummary {
  readonly id: string;
  /** held: stopped at a safe point (paused, aborted, cluster_update_block); `message` says why. */
  readonly status: 'succeeded' | 'failed' | 'skipped' | 'unchanged' | 'held';
  readonly version: string;
  readonly message: string;
  readonly stacks: { name: string; status: string }[];
  readonly nodesReplaced: number;
  readonly pdbViolations: number;
  readonly nodesTerminatedTwice: number;
  readonly stateTransitions: number;
  readonly simulatedSeconds: number;
  readonly problems: { title: string }[];
  /** Stacks this run found in UPDATE_ROLLBACK_FAILED or ROLLBACK_COMPLETE and recovered, with the cause. */
  readonly stackRecoveries?: {
    stack: string;
    action: string;
    foundStatus: string;
    cause: string;
    skipped?: readonly string[];
  }[];
  /** Decommission: what the cluster left outside its stacks and the cleanup deleted (`kind id`). */
  readonly leftovers?: {
    deleted: readonly string[];
    kept: readonly string[];
    remaining: readonly string[];
    unchecked: readonly string[];
  };
}

/** What one cluster's execution did, from its output, the stored status and run, and the world's invariants. */
export async function summarize(
  cluster: Cluster,
  result: ExecutionResult,
  world: CliWorld,
  started: number,
  before: Invariants | undefined,
): Promise<ClusterSummary> {
  const { ports } = world;
  const current = await withStoredStatus(ports, cluster);
  const output = result.status === 'SUCCEEDED' ? ClusterUpdateOutput.parse(result.output) : undefined;
  const targetVersion = output?.run?.targetVersion ?? '';
  const record = targetVersion ? await ports.progress.getRun(cluster.id, targetVersion) : undefined;
  const invariants = world.invariants();
  const decision = output?.run?.decision;
  const status: ClusterSummary['status'] =
    result.status === 'FAILED'
      ? 'failed'
      : decision === 'NOOP'
        ? 'unchanged'
        : decision === 'SKIP'
          ? 'skipped'
          : output?.held
            ? 'held'
            : 'succeeded';
  return {
    id: cluster.id,
    status,
    version: current.status.currentVersion,
    message: result.error
      ? `${result.error.Error}: ${result.error.Cause ?? ''}`
      : (output?.final?.message ?? output?.held?.message ?? output?.run?.message ?? ''),
    stacks: world.stacks(cluster.id, record),
    // A run with nothing to do (or skipped) replaced nothing: the record it found is an earlier run's.
    nodesReplaced:
      decision === 'NOOP' || decision === 'SKIP'
        ? 0
        : Object.values(record?.pools ?? {}).reduce((n, p) => n + p.replaced, 0),
    // The world counts since it was created; this run's share is the difference.
    pdbViolations: (invariants?.pdbViolations ?? 0) - (before?.pdbViolations ?? 0),
    nodesTerminatedTwice: (invariants?.nodesTerminatedTwice ?? 0) - (before?.nodesTerminatedTwice ?? 0),
    stateTransitions: result.stats.stateTransitions,
    simulatedSeconds: Math.round((ports.clock.now() - started) / 1000),
    problems: current.status.problems.map((p) => ({ title: p.title })),
    ...recoveriesOf(record),
    ...(record?.leftovers
      ? {
          leftovers: {
            deleted: record.leftovers.deleted,
            kept: record.leftovers.kept,
            remaining: record.leftovers.remaining,
            unchecked: record.leftovers.unchecked,
          },
        }
      : {}),
  };
}

function recoveriesOf(record: RunRecord | undefined): Pick<ClusterSummary, 'stackRecoveries'> {
  const recoveries = Object.entries(record?.stacks ?? {}).flatMap(([stack, progress]) =>
    (progress.recoveries ?? []).map((r) => ({
      stack,
      action: r.action,
      foundStatus: r.foundStatus,
      cause: r.cause,
      ...(r.skipped ? { skipped: r.skipped } : {}),
    })),
  );
  return recoveries.length ? { stackRecoveries: recoveries } : {};
}

/** The indented lines under a cluster's summary line: stack recoveries and the decommission cleanup. */
function detailLines(s: ClusterSummary): string[] {
  const lines = (s.stackRecoveries ?? []).map(
    (r) =>
      `  recovered stack ${r.stack} from ${r.foundStatus} (${r.action === 'recreate' ? 'deleted and created again' : `rollback continued${r.skipped?.length ? `, skipping ${r.skipped.join(', ')}` : ''}`}): ${r.cause}`,
  );
  const l = s.leftovers;
  if (l) {
    lines.push(`  left outside the stacks, deleted: ${l.deleted.length ? l.deleted.join(', ') : 'nothing'}`);
    if (l.kept.length) lines.push(`  kept (--keep-volumes): ${l.kept.join(', ')}`);
    if (l.remaining.length) lines.push(`  still there (in use): ${l.remaining.join(', ')}`);
    if (l.unchecked.length) lines.push(`  not checked: ${l.unchecked.join(', ')}`);
  }
  return lines;
}

/** The closing table of a text run. */
export function formatSummaries(summaries: readonly ClusterSummary[], simulated: boolean): string {
  const line = (s: ClusterSummary) =>
    `${s.status.padEnd(9)} ${s.id}  ${s.version || '-'}  nodes replaced ${s.nodesReplaced}, PDB violations ${s.pdbViolations}, state transitions ${s.stateTransitions}${simulated ? `, simulated ${formatDuration(s.simulatedSeconds)}` : ''}`;
  return `\n${summaries.map((s) => [line(s), ...detailLines(s)].join('\n')).join('\n')}\n`;
}
