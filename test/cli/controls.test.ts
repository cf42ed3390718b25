import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../lambdas/cli/main';
import type { CliIo } from '../../lambdas/cli/io';
import { openFileProgressStore } from '../../lambdas/adapters/progress/file-progress-store';
import { currentProcess, processHolder } from '../../lambdas/shared/process-identity';
import { SimulatedWorld } from '../../lambdas/sim';

const ROOT = resolve(__dirname, '../..');
const CLUSTER = 'aws:123456789012:eu-central-1:kube-test';
const REGISTRY = ['--registry', 'examples/clusters.yaml'];

async function clm(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io: CliIo & { out: string; err: string } = {
    out: '',
    err: '',
    cwd: ROOT,
    stdout: (text) => void (io.out += text),
    stderr: (text) => void (io.err += text),
  };
  const [command, ...rest] = args;
  const code = await main([command!, ...rest, ...REGISTRY], io);
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

  it('refuses a cluster id the registry does not hold, with the closest one, and changes nothing', async () => {
    for (const command of ['pause', 'abort', 'resume', 'unlock']) {
      const typo = 'aws:123456789012:eu-central-1:kube-tset';
      const refused = await clm(command, typo, '--state', state);
      expect({ command, code: refused.code, out: refused.out }).toEqual({ command, code: 2, out: '' });
      expect(refused.err).toContain(`${typo}: no such cluster in the registry examples/clusters.yaml`);
      expect(refused.err).toContain(`did you mean ${CLUSTER}?`);
      expect(await openFileProgressStore(state).store.getControls(typo)).toBeUndefined();
    }
  });

  it('judges a --simulate run’s lease on the simulated clock: a live one is not broken, an expired one is', async () => {
    // Arrange: a simulated world whose clock is months before the real one, and a lease of a live holder on it
    const world = SimulatedWorld.create({ startTime: '2026-01-01T00:00:00Z' });
    world.save(state);
    const { store, save } = openFileProgressStore(state);
    const holder = processHolder();
    await store.acquireLease(CLUSTER, holder, 60_000, world.now, 'simulated');
    save();

    // Act
    const refused = await clm('unlock', CLUSTER, '--state', state);
    const paused = await clm('pause', CLUSTER, '--state', state);
    world.advance(120_000);
    world.save(state);
    const broken = await clm('unlock', CLUSTER, '--state', state);

    // Assert
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('(simulated time), which may still be running');
    expect(paused.out).toContain(`running now, held by ${holder}`);
    expect(broken.out).toBe(`${CLUSTER}: lease of ${holder} broken (it expired)\n`);
    expect(await store.getLease(CLUSTER)).toBeUndefined();
  });
});
