// Node repair, forced rolls and node age in the simulator (README "Node repair, forced rolls and node age"): a node
// that stops reporting is replaced once it has been NotReady for node_repair_after, with no PDB violated; the cap holds
// when half a pool fails at once; `clm roll --force` replaces every node of a pool exactly once, also when the roll
// is interrupted and run again; nodes older than node_max_age are replaced by the next run with no config change.
import { rmSync } from 'node:fs';
import { TEST, clm, latestRun, loadProgress, loadWorld, poolInstances, tempDir } from './support/clm-session';
import { args, elapsed, nodesOf, provision, registryWith, replacedBy, scenario } from './support/renewal-world';

describe('node renewal', () => {
  const temps: string[] = [];
  afterAll(() => {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  it('replaces a NotReady node once it has been NotReady for node_repair_after, with no PDB violated', async () => {
    const state = tempDir('repair');
    temps.push(state);
    const registry = registryWith(state, { node_repair: 'true', node_repair_after: '10m' });
    const incident = 'nodeIncidents:\n  - { kind: kubelet-stopped, pool: default-worker, atSeconds: 3600 }\n';
    await provision(registry, state, ['--scenario', scenario(state, incident)]);
    const before = poolInstances(loadWorld(state), TEST)['default-worker']!.alive;
    expect(before).toHaveLength(2);

    // Two minutes after the kubelet stopped: NotReady, but not for node_repair_after yet — nothing is replaced.
    const early = Math.ceil(3600 + 120 - elapsed(state));
    const first = await provision(registry, state, ['--sim-advance', `${early}s`]);
    expect(first.clusters[0]!.message).toContain('up to date');
    const lost = nodesOf(state).filter((n) => !n.ready);
    expect(lost).toHaveLength(1);
    expect(poolInstances(loadWorld(state), TEST)['default-worker']!.alive).toEqual(before);

    // Ten minutes later it is due: the run replaces it (and only it), draining what it can.
    const second = await provision(registry, state, ['--sim-advance', '10m']);
    expect(second.clusters[0]).toMatchObject({ status: 'succeeded', pdbViolations: 0 });
    const after = poolInstances(loadWorld(state), TEST)['default-worker']!;
    expect(replacedBy(state)).toEqual([lost[0]!.instanceId]);
    expect(after.gone).toContain(lost[0]!.instanceId);
    expect(after.alive).toHaveLength(2);
    expect(nodesOf(state).every((n) => n.ready)).toBe(true);
    expect(latestRun(state, TEST).nodeRoll).toMatchObject({
      kind: 'renew',
      reason: expect.stringContaining('1 repair'),
    });
    expect(loadWorld(state).invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  });

  it('repairs nothing when half a pool fails at once, and a problem says why', async () => {
    const state = tempDir('repair-cap');
    temps.push(state);
    const registry = registryWith(state, { node_repair: 'true', node_repair_max_unhealthy: '40%' }, { min: 4, max: 6 });
    const incident = 'nodeIncidents:\n  - { kind: unreachable, pool: default-worker, atSeconds: 3600, nodes: "50%" }\n';
    await provision(registry, state, ['--scenario', scenario(state, incident)]);
    const before = poolInstances(loadWorld(state), TEST)['default-worker']!.alive;
    expect(before).toHaveLength(4);

    const run = await provision(registry, state, ['--sim-advance', `${Math.ceil(3600 + 1200 - elapsed(state))}s`]);

    expect(run.clusters[0]!.message).toContain('node_repair_max_unhealthy 40% allows (1)');
    expect(nodesOf(state).filter((n) => !n.ready)).toHaveLength(2);
    expect(poolInstances(loadWorld(state), TEST)['default-worker']!.alive).toEqual(before);
    const problems = loadProgress(state).statuses[TEST]!.problems.map((p) => p.title);
    expect(problems).toContainEqual(
      expect.stringContaining(
        '2 of 4 nodes of the pool default-worker are unhealthy, more than node_repair_max_unhealthy',
      ),
    );
  });

  it('clm roll --force replaces every node of a pool exactly once, also when interrupted and run again', async () => {
    const state = tempDir('force');
    temps.push(state);
    const registry = registryWith(state, {});
    // The second termination of the roll fails (as a crash would stop it), after the first node was replaced.
    const fault =
      'faults:\n  apiErrors:\n    - { on: pools.terminate, error: fatal, after: 1, cluster: ' + TEST + ' }\n';
    await provision(registry, state, ['--scenario', scenario(state, fault)]);
    const world = () => poolInstances(loadWorld(state), TEST);
    const old = world()['default-worker']!.alive;
    const masters = world()['master-default']!.alive;
    const roll = ['roll', TEST, '--pool', 'default-worker', '--force', '--reason', 'CVE-2026-1234'];

    const interrupted = await clm(args(roll, registry, state));
    expect(interrupted.code).toBe(1);
    const midway = world()['default-worker']!;
    expect(midway.gone.filter((id) => old.includes(id))).toHaveLength(1);

    const resumed = await clm(args(roll, registry, state));
    expect(resumed.code).toBe(0);
    const after = world()['default-worker']!;
    expect(after.gone.filter((id) => old.includes(id)).sort()).toEqual([...old].sort());
    // Replaced: exactly the old nodes (others that went were the roll's own extra nodes for same-zone pairing).
    expect(replacedBy(state)).toEqual([...old].sort());
    expect(after.alive).toHaveLength(old.length);
    expect(world()['master-default']!.alive).toEqual(masters);
    expect(latestRun(state, TEST).nodeRoll).toMatchObject({
      kind: 'force',
      pools: ['default-worker'],
      reason: 'CVE-2026-1234',
      requestedBy: expect.stringContaining('@'),
    });
    expect(loadWorld(state).invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });

    // Asked again, it replaces the pool once more: the nodes the first roll brought up.
    const again = await clm(args(roll, registry, state));
    expect(again.code).toBe(0);
    expect(replacedBy(state)).toEqual([...after.alive].sort());
    expect(latestRun(state, TEST).nodeRollHistory).toEqual([
      expect.objectContaining({ kind: 'force', reason: 'CVE-2026-1234', completedAt: expect.any(Number) }),
    ]);
  });

  it('replaces nodes older than node_max_age in the next run, with no config change', async () => {
    const state = tempDir('max-age');
    temps.push(state);
    const registry = registryWith(state, { node_max_age: '2h' });
    await provision(registry, state, ['--scenario', scenario(state, '')]);
    const old = poolInstances(loadWorld(state), TEST)['default-worker']!.alive;
    const masters = poolInstances(loadWorld(state), TEST)['master-default']!.alive;

    const young = await provision(registry, state, ['--sim-advance', '1h']);
    expect(young.clusters[0]!.message).toContain('up to date');

    const run = await provision(registry, state, ['--sim-advance', '1h30m']);
    expect(run.clusters[0]).toMatchObject({ status: 'succeeded', pdbViolations: 0 });
    const after = poolInstances(loadWorld(state), TEST);
    expect(replacedBy(state)).toEqual([...old].sort());
    expect(after['default-worker']!.gone.filter((id) => old.includes(id)).sort()).toEqual([...old].sort());
    expect(after['default-worker']!.alive).toHaveLength(old.length);
    expect(after['master-default']!.alive).toEqual(masters);
    expect(latestRun(state, TEST).nodeRoll).toMatchObject({ kind: 'renew', reason: expect.stringContaining('2 age') });
  });
});
