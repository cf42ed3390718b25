// Ctrl-C (SIGINT) on a running `clm provision --simulate` (a child process): it stops after the task running then, a
// safe point, releases the lease, says how to continue and exits 130; the same command then finishes the roll from
// the stored progress, every old node replaced exactly once.
import { rmSync } from 'node:fs';
import { startClm, stopOutsideLock } from './support/clm-process';
import {
  EXAMPLES,
  TEST,
  clm,
  configWithNewImage,
  createKubeTest,
  latestRun,
  loadProgress,
  loadWorld,
  poolInstances,
  tempDir,
} from './support/clm-session';

describe('clm provision interrupted', () => {
  const temps: string[] = [];
  afterAll(() => {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  it('stops at a safe point on SIGINT with exit 130, and the same command continues', async () => {
    const state = tempDir('interrupt');
    const config = configWithNewImage();
    temps.push(state, config);
    await createKubeTest(state);
    const old = poolInstances(loadWorld(state), TEST)['default-worker']!.alive;
    const args = ['provision', '--simulate', ...EXAMPLES, '--directory', config, '--state', state, '--cluster', TEST];

    const child = startClm(args);
    await child.progress(/RollStep/);
    // Frozen right after a task, the signal waits; on SIGCONT it lands while the next roll step runs.
    await stopOutsideLock(child.pid, state);
    process.kill(child.pid, 'SIGINT');
    process.kill(child.pid, 'SIGCONT');
    const run = await child.done;

    expect(run.code).toBe(130);
    expect(run.err).toContain('SIGINT: stopping at the next safe point');
    expect(run.err).toContain(
      `${TEST}: stopped at a safe point (after a finished task), lease released; run the same command again to continue`,
    );
    expect(loadProgress(state).leases[TEST]).toBeUndefined();
    expect(latestRun(state, TEST).completedAt).toBeUndefined();

    const resumed = await clm([...args, '--output', 'json']);
    expect(resumed.code).toBe(0);
    const after = poolInstances(loadWorld(state), TEST)['default-worker']!;
    expect(after.gone.filter((id) => old.includes(id)).sort()).toEqual([...old].sort());
    expect(after.alive).toHaveLength(old.length);
    expect(loadWorld(state).invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  });
});
