/** A bench run as `npm run bench -- --json FILE` writes it: when, where, from which commit, and every figure. */
import { spawnSync } from 'node:child_process';
import { arch, cpus, totalmem } from 'node:os';
import type { BenchResult } from './bench-result';

export interface BenchRow extends BenchResult {
  readonly module: string;
}

export interface BenchRun {
  /** ISO time at the end of the run. */
  readonly date: string;
  readonly machine: string;
  readonly node: string;
  /** `git describe --always --dirty` of the checkout measured. */
  readonly commit: string;
  readonly command: string;
  readonly rows: readonly BenchRow[];
}

export function benchRun(args: readonly string[], rows: readonly BenchRow[]): BenchRun {
  const git = spawnSync('git', ['describe', '--always', '--dirty'], { encoding: 'utf8' });
  const cpu = cpus();
  return {
    date: new Date().toISOString(),
    machine: `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${arch()}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    commit: git.status === 0 ? git.stdout.trim() : 'unknown',
    command: ['npm run bench', ...(args.length ? ['--', ...args] : [])].join(' '),
    rows, // a figure not measured (NaN) is written as null
  };
}
