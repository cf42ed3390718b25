// `clm dispatch --simulate` shows node repair: the pass lists the nodes of a cluster that asks for it (and is at its
// target), starts a renewal run only when a node is due, and that run replaces the lost node; a healthy cluster gets
// no execution.
import { appendFileSync, cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, TEST, clm, latestRun, loadWorld, poolInstances, tempDir } from './support/clm-session';
import { args, elapsed, nodesOf, registryWith, replacedBy, scenario } from './support/renewal-world';

interface DispatchJson {
  report: { starts: { clusterId: string; message: string }[] };
  updates: { clusterId: string; status: string }[];
}

describe('node repair in the scheduled pass', () => {
  const temps: string[] = [];
  afterAll(() => {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * kube-test provisioned with `config` (a node lost an hour in), a pass that finds it healthy, then one 15 minutes
   * after the node became due: the second pass must start a renewal run that repairs it.
   */
  async function lostNodeRepairedByThePass(prefix: string, items: Record<string, string>, config: string) {
    const state = tempDir(prefix);
    temps.push(state);
    const registry = registryWith(state, items);
    const incident = 'nodeIncidents:\n  - { kind: unreachable, pool: default-worker, atSeconds: 3600 }\n';
    const extra = ['--scenario', scenario(state, incident)];
    const created = await clm(args(['provision', '--cluster', TEST], registry, state, extra).map(at(config)));
    expect(created.code).toBe(0);
    const dispatch = (advance: string) =>
      clm([
        ...['dispatch', '--simulate', '--registry', registry, '--directory', config, '--state', state],
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
  }

  it('starts a renewal run only where a node is due, and the run repairs it', async () => {
    await lostNodeRepairedByThePass('repair-dispatch', { node_repair: 'true' }, 'examples/config');
  });

  it('reads node_repair set only in config-defaults.yaml, as the render of the running version recorded it', async () => {
    const config = tempDir('repair-defaults-config');
    temps.push(config);
    cpSync(join(ROOT, 'examples/config'), config, { recursive: true });
    appendFileSync(join(config, 'cluster/config-defaults.yaml'), '\nnode_repair: "true"\n');
    await lostNodeRepairedByThePass('repair-defaults', {}, config);
  });
});

/** The provision arguments with the config directory `config` in place of examples/config. */
function at(config: string): (arg: string) => string {
  return (arg) => (arg === 'examples/config' ? config : arg);
}
