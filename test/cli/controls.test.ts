import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../lambdas/cli/main';
import type { CliIo } from '../../lambdas/cli/io';
import { openFileProgressStore } from '../../lambdas/adapters/progress/file-progress-store';
import { currentProcess, processHolder } from '../../lambdas/shared/process-identity';

const ROOT = resolve(__dirname, '../..');
const CLUSTER = 'aws:123456789012:eu-central-1:kube-test';

async function clm(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io: CliIo & { out: string; err: string } = {
    out: '',
    err: '',
    cwd: ROOT,
    stdout: (text) => void (io.out += text),
    stderr: (text) => void (io.err += text),
  };
  const code = await main(args, io);
  return { code, out: io.out, err: io.err };
}

describe('clm pause, abort, resume and unlock', () => {
  let state: string;
  beforeEach(() => {
    state = mkdtempSync(join(tmpdir(), 'clm-controls-'));
  });
  afterEach(() => rmSync(state, { recursive: true, force: true }));

  it('records who paused or aborted, when and why; resume clears it', async () => {
    expect((await clm('pause', CLUSTER, '--state', state, '--reason', 'incident 42')).code).toBe(0);
    const { store } = openFileProgressStore(state);
    expect(await store.getControls(CLUSTER)).toEqual({
      paused: true,
      reason: 'incident 42',
      by: expect.stringMatching(/^.+@.+$/),
      at: expect.any(Number),
    });
    await clm('abort', CLUSTER, '--state', state);
    expect(await store.getControls(CLUSTER)).toMatchObject({ abortRequested: true });
    expect((await clm('resume', CLUSTER, '--state', state)).out).toContain('resumed');
    expect(await store.getControls(CLUSTER)).toEqual({});
  });

  it('refuses to break a lease whose holder may be alive, unless --force; breaks a dead holder at once', async () => {
    const { store, save } = openFileProgressStore(state);
    await store.acquireLease(CLUSTER, processHolder(), 60_000, Date.now());
    save();
    const refused = await clm('unlock', CLUSTER, '--state', state);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('may still be running');
    expect(await store.getLease(CLUSTER)).toBeDefined();
    const forced = await clm('unlock', CLUSTER, '--state', state, '--force');
    expect(forced.out).toContain('(--force)');
    expect(await store.getLease(CLUSTER)).toBeUndefined();

    // A CLI process of this host that no longer runs (pid 2^22 + 1 is beyond Linux's pid range).
    const dead = processHolder({ ...currentProcess(), pid: 4194305, startedAt: 1 });
    await store.acquireLease(CLUSTER, dead, 60_000, Date.now());
    save();
    const stale = await clm('unlock', CLUSTER, '--state', state);
    expect(stale.out).toContain('(its holder is gone)');
    expect(await clm('unlock', CLUSTER, '--state', state)).toMatchObject({
      code: 0,
      out: `${CLUSTER}: no lease held\n`,
    });
  });
});
