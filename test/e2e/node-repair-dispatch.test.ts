// `clm dispatch --simulate` shows node repair: the pass lists the nodes of a cluster that asks for it (and is at its
// target), starts a renewal run only when a node is due, and that run replaces the lost node; a healthy cluster gets
// no execution.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { TEST, clm, latestRun, loadWorld, poolInstances, tempDir } from './support/clm-session';
import { elapsed, nodesOf, provision, registryWith, replacedBy, scenario } from './support/renewal-world';

interface DispatchJson {
  report: { starts: { clusterId: string; message: string }[] };
  updates: { clusterId: string; status: string }[];
}

describe('node repair in the scheduled pass', () => {
  const temps: string[] = [];
  afterAll(() => {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  it('starts a renewal run only where a node is due, and the run repairs it', async () => {
    const state = tempDir('repair-dispatch');
    temps.push(state);
    const registry = registryWith(state, { node_repair: 'true' });
    const incident = 'nodeIncidents:\n  - { kind: unreachable, pool: default-worker, atSeconds: 3600 }\n';
    await provision(registry, state, ['--scenario', scenario(state, incident)]);
    const dispatch = (advance: string) =>
      clm([
        ...['dispatch', '--simulate', '--registry', registry, '--directory', 'examples/config', '--state', state],
        ...['--cluster', TEST, '--sim-advance', advance, '--output', 'json'],
      ]);

    // Healthy: the pass looks (one listing of the nodes) and starts nothing.
    const healthy = await dispatch('1m');
    expect(healthy.code).toBe(0);
    expect((JSON.parse(healthy.out) as DispatchJson).report.starts).toEqual([]);

    const run = await dispatch(`${Math.ceil(3600 + 15 * 60 - elapsed(state))}s`);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.out) as DispatchJson;
    expect(out.report.starts).toEqual([
      expect.objectContaining({
        clusterId: TEST,
        message: expect.stringContaining('node renewal: 1 node(s) due: 1 repair'),
      }),
    ]);
    expect(out.updates).toEqual([expect.objectContaining({ clusterId: TEST, status: 'SUCCEEDED' })]);
    const lost = Object.values(latestRun(state, TEST).pools['default-worker']!.nodes);
    expect(replacedBy(state)).toHaveLength(1);
    expect(poolInstances(loadWorld(state), TEST)['default-worker']!.gone).toContain(
      lost.find((n) => !n.surplus)!.instanceId,
    );
    expect(nodesOf(state).every((n) => n.ready)).toBe(true);
    expect(latestRun(state, TEST).nodeRoll).toMatchObject({ kind: 'renew', requestedBy: 'cli pass' });
    expect(loadWorld(state).invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  });

  it('repairs outside the maintenance windows when node_repair_outside_windows allows, without waiting for one', async () => {
    const state = tempDir('repair-anytime');
    temps.push(state);
    const registry = registryWith(state, { node_repair: 'true', node_repair_outside_windows: 'true' });
    // The cluster's only window is 12:00-12:05 UTC (the world starts at 2026-01-01T00:00Z); a node is lost at 14:00.
    const text = readFileSync(registry, 'utf8');
    expect(text).toContain('      team: platform\n');
    writeFileSync(
      registry,
      text.replace('      team: platform\n', '      team: platform\n      maintenance_windows: "* 12:00-12:05 UTC"\n'),
    );
    const lostAt = 14 * 3600;
    const incident = `nodeIncidents:\n  - { kind: unreachable, pool: default-worker, atSeconds: ${lostAt} }\n`;
    const world = scenario(state, incident);
    // The first provision waits for the window: it creates the cluster from 12:00.
    await provision(registry, state, ['--scenario', world]);
    const start = elapsed(state);
    const noon = 12 * 3600;
    expect(start).toBeGreaterThanOrEqual(noon);

    const run = await clm([
      ...['dispatch', '--simulate', '--registry', registry, '--directory', 'examples/config', '--state', state],
      ...['--cluster', TEST, '--sim-advance', `${Math.ceil(lostAt + 15 * 60 - start)}s`, '--output', 'json'],
    ]);

    expect(run.code).toBe(0);
    const out = JSON.parse(run.out) as DispatchJson;
    expect(out.updates).toEqual([expect.objectContaining({ clusterId: TEST, status: 'SUCCEEDED' })]);
    expect(replacedBy(state)).toHaveLength(1);
    // Done before the next day's window opened (a wait would have moved the clock to 12:00 the next day).
    expect(elapsed(state)).toBeLessThan(noon + 24 * 3600);
    expect(loadWorld(state).invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  });
});
