// `clm serve` as a child process on 127.0.0.1 (the serve e2e tests): started, asked through /healthz until it has
// nothing left to do (bounded by work, not by time), and stopped as a person stops it, with Ctrl-C (SIGINT).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './clm-session';

export interface Health {
  readonly passes: number;
  readonly passesQueued: number;
  readonly updatesQueued: number;
  readonly updatesRun: number;
  readonly busy: boolean;
}

export interface ServeProcess {
  readonly child: ChildProcess;
  /** The port it listens on, once it says so. */
  readonly port: Promise<number>;
  /** Everything it printed so far (stdout and stderr). */
  readonly log: () => string;
}

export function startServe(args: readonly string[]): ServeProcess {
  const child = spawn(process.execPath, [join(ROOT, 'bin/clm.mjs'), 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const port = new Promise<number>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('close', (code) => reject(new Error(`clm serve ended (${code}) before listening:\n${out}`)));
  });
  return { child, port, log: () => out };
}

/** Until the controller has run `updates` updates in all and has nothing queued or running. */
export async function settled(port: number, updates: number): Promise<Health> {
  for (;;) {
    const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as Health;
    if (!health.busy && health.passesQueued === 0 && health.updatesQueued === 0 && health.updatesRun >= updates)
      return health;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Ctrl-C: it stops at a safe point; its exit code (130). */
export async function interrupt(serve: ServeProcess): Promise<number | null> {
  const closed = new Promise<number | null>((resolve) => serve.child.on('close', resolve));
  serve.child.kill('SIGINT');
  return closed;
}
