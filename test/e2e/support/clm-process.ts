// `node bin/clm.mjs …` as a child process that can be SIGKILLed after a number of progress lines.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_FILE } from '../../../lambdas/shared/state-directory';
import { ROOT } from './clm-session';

export interface ProcessRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly out: string;
  readonly err: string;
  /** Progress lines (`  [  1m00s] State: message`) seen before the process ended. */
  readonly progressLines: number;
}

const PROGRESS = /^ {2}\[/;

/**
 * Run `clm <args>`; with `killAfter`, SIGKILL it as soon as that many progress lines arrived (it may have
 * written a few more meanwhile: the kill lands wherever the process is, which is the point).
 */
export function runClm(args: readonly string[], killAfter?: number): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/clm.mjs'), ...args], {
      cwd: ROOT,
      env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT', NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let progressLines = 0;
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      progressLines += lines.filter((l) => PROGRESS.test(l)).length;
      if (killAfter !== undefined && progressLines >= killAfter && child.exitCode === null) child.kill('SIGKILL');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, out, err, progressLines }));
  });
}

export interface StartedClm {
  readonly pid: number;
  /** Resolves once a progress line matches `pattern` (rejects if the process ends first). */
  progress(pattern: RegExp): Promise<string>;
  readonly done: Promise<ProcessRun>;
}

/** Start `clm <args>` and keep it running; the caller watches its progress lines and may signal it by pid. */
export function startClm(args: readonly string[], env: Readonly<Record<string, string>> = {}): StartedClm {
  const child = spawn(process.execPath, [join(ROOT, 'bin/clm.mjs'), ...args], {
    cwd: ROOT,
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT', NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiting: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const w of [...waiting]) {
      const line = out.split('\n').find((l) => PROGRESS.test(l) && w.pattern.test(l));
      if (line) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const done = new Promise<ProcessRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code, signal, out, err, progressLines: out.split('\n').filter((l) => PROGRESS.test(l)).length }),
    );
  });
  return {
    pid: child.pid!,
    done,
    progress: (pattern) =>
      new Promise((resolve, reject) => {
        waiting.push({ pattern, resolve });
        void done.then((run) => reject(new Error(`clm ended before a line matched ${pattern}:\n${run.out}${run.err}`)));
      }),
  };
}

/** SIGSTOP `pid` at a moment it does not hold the state directory's lock (a stopped lock holder blocks everyone). */
export async function stopOutsideLock(pid: number, state: string): Promise<void> {
  for (;;) {
    process.kill(pid, 'SIGSTOP');
    // The signal is delivered asynchronously: on another core the process runs on (and may take the lock) until the
    // kernel has stopped it. Look at the lock only once it is really stopped.
    await stopped(pid);
    if (!existsSync(join(state, LOCK_FILE))) return;
    process.kill(pid, 'SIGCONT');
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

/** Until /proc says `pid` is stopped (state T). */
async function stopped(pid: number): Promise<void> {
  for (;;) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 3, after the parenthesised command name (which may itself contain spaces).
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
