// Node repair outside the maintenance windows (README "Node repair, forced rolls and node age"): with the window
// "* 12:00-13:00 UTC" and a node lost at 14:00, a pool with `node_repair_outside_windows: "true"` is repaired by the
// scheduled pass right away — the lost node and the roll's own extra node (launched for the repair) both go, and the
// run ends within the hour; without the item the repair waits for the next day's window.
import { rmSync } from 'node:fs';
import { parseMaintenanceWindows, windowOpen } from '../../lambdas/core/schedule/maintenance-windows';
import { TEST, clm, latestRun, loadWorld, poolInstances, tempDir } from './support/clm-session';
import { elapsed, nodesOf, provision, registryWith, replacedBy, scenario } from './support/renewal-world';

const WINDOWS = '* 12:00-13:00 UTC';
const HOUR = 3600;
/** The node is lost at 14:00 of the world's first day (it starts at 2026-01-01T00:00Z). */
const LOST_AT = 14 * HOUR;
/** node_repair_after (10m, the default) and a pass 15 minutes after that. */
const PASS_AT = LOST_AT + 25 * 60;

interface DispatchJson {
  report: { starts: { clusterId: string; message: string }[] };
  updates: { clusterId: string; status: string }[];
}

describe('node repair outside the maintenance windows', () => {
  const temps: string[] = [];
  afterAll(() => {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  /** kube-test provisioned (in the first window), the node lost at 14:00, the scheduled pass at 14:25. */
  async function lostNodeAndPass(prefix: string, pool: Record<string, string>) {
    const state = tempDir(prefix);
    temps.push(state);
    const registry = registryWith(state, { node_repair: 'true', ...pool }, undefined, { maintenance_windows: WINDOWS });
    const incident = `nodeIncidents:\n  - { kind: unreachable, pool: default-worker, atSeconds: ${LOST_AT} }\n`;
    await provision(registry, state, ['--scenario', scenario(state, incident)]);
    expect(elapsed(state)).toBeLessThan(LOST_AT);
    const startOfWorld = loadWorld(state).snapshot().startTime;
    const run = await clm([
      ...['dispatch', '--simulate', '--registry', registry, '--directory', 'examples/config', '--state', state],
      ...['--cluster', TEST, '--sim-advance', `${Math.ceil(PASS_AT - elapsed(state))}s`, '--output', 'json'],
    ]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.out) as DispatchJson;
    expect(out.report.starts).toEqual([
      expect.objectContaining({ clusterId: TEST, message: expect.stringContaining('1 repair') }),
    ]);
    expect(out.updates).toEqual([expect.objectContaining({ clusterId: TEST, status: 'SUCCEEDED' })]);
    const record = latestRun(state, TEST);
    const nodes = Object.values(record.pools['default-worker']!.nodes);
    return { state, startOfWorld, record, nodes };
  }

  it('with node_repair_outside_windows, replaces the lost node and ends the run outside the window', async () => {
    const { state, startOfWorld, record, nodes } = await lostNodeAndPass('repair-anytime', {
      node_repair_outside_windows: 'true',
    });

    const lost = nodes.filter((n) => !n.surplus);
    expect(lost).toHaveLength(1);
    // The roll added a node for same-zone pairing and took it back: that is part of the repair, not windowed work.
    expect(nodes.filter((n) => n.surplus && n.state === 'terminated')).not.toHaveLength(0);
    expect(replacedBy(state)).toEqual([lost[0]!.instanceId]);
    expect(poolInstances(loadWorld(state), TEST)['default-worker']!.gone).toContain(lost[0]!.instanceId);
    expect(nodesOf(state).every((n) => n.ready)).toBe(true);
    // Everything the roll did, its own extra nodes taken back included, happened before 16:00 of the same day.
    const windows = parseMaintenanceWindows(WINDOWS, 'test');
    for (const node of nodes) expect(windowOpen(windows, node.cordonedAt!)).toBe(false);
    expect(record.completedAt! - startOfWorld).toBeLessThan(LOST_AT * 1000 + 2 * HOUR * 1000);
    expect(loadWorld(state).invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  });

  it('without it, the repair waits for the next window', async () => {
    const { state, startOfWorld, record, nodes } = await lostNodeAndPass('repair-in-window', {});

    const lost = nodes.filter((n) => !n.surplus);
    expect(replacedBy(state)).toEqual([lost[0]!.instanceId]);
    const nextWindow = startOfWorld + 36 * HOUR * 1000; // 2026-01-02T12:00Z
    expect(Math.min(...nodes.map((n) => n.cordonedAt!))).toBeGreaterThanOrEqual(nextWindow);
    expect(record.completedAt!).toBeGreaterThanOrEqual(nextWindow);
    expect(loadWorld(state).invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  });
});
