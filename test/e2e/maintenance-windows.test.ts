// A roll under `maintenance_windows`: the simulated world starts at 2026-01-01T00:00Z, the window is 12:00–12:05 UTC
// every day, so the roll waits for it (one Wait state, not a polling loop), starts replacing nodes only inside a
// window, lets a drain in flight finish after it closes, and waits again for the next day's window if needed.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  nextWindowOpening,
  parseMaintenanceWindows,
  windowOpen,
} from '../../lambdas/core/schedule/maintenance-windows';
import {
  ROOT,
  TEST,
  clm,
  configWithNewImage,
  createKubeTest,
  latestRun,
  loadWorld,
  poolInstances,
  tempDir,
} from './support/clm-session';

const WINDOWS = '* 12:00-12:05 UTC';

describe('maintenance windows', () => {
  const temps: string[] = [];
  afterAll(() => {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  it('replaces nodes only inside a window, waiting for it with a few state transitions', async () => {
    const state = tempDir('windows');
    const config = configWithNewImage();
    temps.push(state, config);
    await createKubeTest(state);
    const old = poolInstances(loadWorld(state), TEST)['default-worker']!.alive;
    const registry = join(state, 'clusters.yaml');
    const text = readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8');
    writeFileSync(
      registry,
      text.replace('      team: platform\n', `      team: platform\n      maintenance_windows: "${WINDOWS}"\n`),
    );
    const startedAt = loadWorld(state).clock.now();
    expect(windowOpen(parseMaintenanceWindows(WINDOWS, 'test'), startedAt)).toBe(false);

    const run = await clm([
      ...['provision', '--simulate', '--registry', registry, '--directory', config],
      ...['--state', state, '--cluster', TEST, '--output', 'json'],
    ]);

    expect(run.code).toBe(0);
    const [summary] = (
      JSON.parse(run.out) as { clusters: { status: string; stateTransitions: number; pdbViolations: number }[] }
    ).clusters;
    expect(summary).toMatchObject({ status: 'succeeded', pdbViolations: 0 });
    const windows = parseMaintenanceWindows(WINDOWS, 'test');
    const nodes = Object.values(latestRun(state, TEST).pools['default-worker']!.nodes).filter((n) => !n.surplus);
    expect(nodes.map((n) => n.instanceId).sort()).toEqual([...old].sort());
    for (const node of nodes)
      expect({ node: node.instanceId, inWindow: windowOpen(windows, node.cordonedAt!) }).toEqual({
        node: node.instanceId,
        inWindow: true,
      });
    // Nothing before the first window opened; and the hours of waiting cost a handful of transitions, not a poll loop.
    expect(Math.min(...nodes.map((n) => n.cordonedAt!))).toBeGreaterThanOrEqual(nextWindowOpening(windows, startedAt));
    expect(summary!.stateTransitions).toBeLessThan(200);
    expect(loadWorld(state).invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  });
});
