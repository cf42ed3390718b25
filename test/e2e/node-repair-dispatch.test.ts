// `clm dispatch --simulate` shows node repair: the pass lists the nodes of a cluster that asks for it (and is at its
// target), starts a renewal run only when a node is due, and that run replaces the lost node; a healthy cluster gets
// no execution.
import { rmSync } from 'node:fs';
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
});
