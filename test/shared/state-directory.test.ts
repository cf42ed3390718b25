import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConflictError } from '../../lambdas/shared/errors';
import { processStartTime } from '../../lambdas/shared/process-identity';
import { LOCK_FILE, STALE_LOCK_MS, withStateLock, writeFileAtomic } from '../../lambdas/shared/state-directory';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'clm-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lockOf = (pid: number, at = Date.now(), startedAt = processStartTime(pid) ?? 0) =>
  JSON.stringify({ host: hostname(), pid, startedAt, at });

describe('writeFileAtomic', () => {
  it('replaces the file and leaves no temporary file behind', () => {
    const path = join(dir, 'f.json');
    writeFileAtomic(path, '1');
    writeFileAtomic(path, '2');
    expect(readFileSync(path, 'utf8')).toBe('2');
    expect(readdirSync(dir)).toEqual(['f.json']);
  });
});

describe('withStateLock', () => {
  it('holds DIR/.lock while fn runs, is re-entrant, and removes it afterwards', () => {
    const seen = withStateLock(dir, () => [existsSync(join(dir, LOCK_FILE)), withStateLock(dir, () => 'inner')]);
    expect(seen).toEqual([true, 'inner']);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it("creates the lock holding the holder's record, and leaves no temporary file", () => {
    const record = withStateLock(dir, () => JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number });
    expect(record.pid).toBe(process.pid);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('releases the lock when fn throws', () => {
    expect(() =>
      withStateLock(dir, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('waits for a live holder and then fails naming it', () => {
    writeFileSync(join(dir, LOCK_FILE), lockOf(process.ppid));
    expect(() => withStateLock(dir, () => 1, 100)).toThrow(ConflictError);
    expect(() => withStateLock(dir, () => 1, 100)).toThrow(`process ${process.ppid} on ${hostname()}`);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
  });

  it('breaks at once the lock of a process that is gone, and a lock older than the stale limit', () => {
    writeFileSync(join(dir, LOCK_FILE), lockOf(2 ** 22 + 17, Date.now(), 1));
    expect(withStateLock(dir, () => 'dead holder', 100)).toBe('dead holder');

    writeFileSync(join(dir, LOCK_FILE), lockOf(process.ppid, Date.now() - STALE_LOCK_MS - 1000));
    expect(withStateLock(dir, () => 'stale', 100)).toBe('stale');

    writeFileSync(join(dir, LOCK_FILE), ''); // a holder died between creating and writing it
    const old = (Date.now() - STALE_LOCK_MS - 1000) / 1000;
    utimesSync(join(dir, LOCK_FILE), old, old);
    expect(withStateLock(dir, () => 'empty', 100)).toBe('empty');
  });

  it('keeps read-modify-write sequences of several processes from losing updates', async () => {
    const counter = join(dir, 'counter');
    const go = join(dir, 'go');
    writeFileSync(counter, '0');
    const script = join(dir, 'count.ts');
    const module = resolve(__dirname, '../../lambdas/shared/state-directory.ts');
    writeFileSync(
      script,
      `import { existsSync, readFileSync } from 'node:fs';
import { withStateLock, writeFileAtomic } from ${JSON.stringify(module)};
while (!existsSync(${JSON.stringify(go)})) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
for (let i = 0; i < 150; i++)
  withStateLock(${JSON.stringify(dir)}, () => {
    const n = Number(readFileSync(${JSON.stringify(counter)}, 'utf8'));
    writeFileAtomic(${JSON.stringify(counter)}, String(n + 1));
  });`,
    );
    const children = [1, 2, 3].map(
      () =>
        new Promise<number | null>((done, fail) => {
          const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
          child.on('error', fail);
          child.on('close', done);
        }),
    );
    setTimeout(() => writeFileSync(go, ''), 3000);

    expect(await Promise.all(children)).toEqual([0, 0, 0]);
    expect(readFileSync(counter, 'utf8')).toBe('450');
  }, 60_000);
});
