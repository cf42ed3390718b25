/**
 * Whole processes measured side by side, for figures that compare two commands on a shared machine: CPU (user +
 * system, what the kernel accounts to the process from exec to exit, so start-up counts), never wall time, which a
 * loaded machine stretches; the two commands alternate (A B A B …) so a change in load hits both; the figure is the
 * median of the per-pair ratios.
 *
 * The CPU comes from bash's `time` (getrusage of the child, to the millisecond; GNU time prints only hundredths).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './bench-result';

export interface ProcessCommand {
  readonly argv: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Run before each measured run, not measured (e.g. remove the previous run's output). */
  readonly before?: () => void;
}

/** User + system CPU seconds of one run of `command`; throws with its stderr when it fails. */
export function processCpu(command: ProcessCommand): number {
  command.before?.();
  const scratch = mkdtempSync(join(tmpdir(), 'clm-bench-cpu-'));
  const errFile = join(scratch, 'stderr');
  try {
    const result = spawnSync(
      'bash',
      ['-c', 'TIMEFORMAT="%3U %3S"; { time "$@" >/dev/null 2>"$CLM_BENCH_STDERR"; } 2>&1', 'bash', ...command.argv],
      {
        cwd: command.cwd,
        env: { ...(command.env ?? process.env), CLM_BENCH_STDERR: errFile },
        encoding: 'utf8',
      },
    );
    const times = /^(\d+\.\d+) (\d+\.\d+)\s*$/m.exec(result.stdout ?? '');
    if (result.status !== 0 || !times) {
      const stderr = readFileSync(errFile, 'utf8');
      throw new Error(`${command.argv.join(' ')} failed (exit ${result.status}):\n${stderr.trim().slice(-2000)}`);
    }
    return Number(times[1]) + Number(times[2]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export interface Pairs {
  /** CPU seconds of each run of A and of B, in order. */
  readonly a: readonly number[];
  readonly b: readonly number[];
  /** a[i] / b[i]. */
  readonly ratios: readonly number[];
  readonly medianRatio: number;
  readonly medianA: number;
  readonly medianB: number;
}

/** `pairs` pairs, A then B each time, after one unmeasured run of each (disk cache) unless `warmUp` is false. */
export function interleavedPairs(
  pairs: number,
  a: ProcessCommand,
  b: ProcessCommand,
  options: { warmUp?: boolean } = {},
): Pairs {
  if (options.warmUp ?? true) {
    processCpu(a);
    processCpu(b);
  }
  const runsA: number[] = [];
  const runsB: number[] = [];
  for (let i = 0; i < pairs; i++) {
    runsA.push(processCpu(a));
    runsB.push(processCpu(b));
  }
  const ratios = runsA.map((cpu, i) => cpu / runsB[i]);
  return { a: runsA, b: runsB, ratios, medianRatio: median(ratios), medianA: median(runsA), medianB: median(runsB) };
}

/** "0.93× (0.88–1.01, 11 pairs)": the median ratio with the spread of the pairs. */
export function describePairs(pairs: Pairs): string {
  const sorted = [...pairs.ratios].sort((x, y) => x - y);
  return `${pairs.medianRatio.toFixed(2)}× (pairs ${sorted[0].toFixed(2)}–${sorted[sorted.length - 1].toFixed(2)}, n = ${sorted.length})`;
}
