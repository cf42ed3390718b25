// Node repair, forced rolls and node age in the simulator (README "Node repair, forced rolls and node age"): a node
// that stops reporting is replaced once it has been NotReady for node_repair_after, with no PDB violated; the cap holds
// when half a pool fails at once; `clm roll --force` replaces every node of a pool exactly once, also when the roll
// is interrupted and run again; nodes older than node_max_age are replaced by the next run with no config change.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, TEST, clm, latestRun, loadProgress, loadWorld, poolInstances, tempDir } from './support/clm-session';

const POOL_BLOCK = '        min_size: 2\n        max_size: 3\n    status: {}\n';

/** examples/clusters.yaml with kube-test's default-worker sized and given config items. */
function registryWith(dir: string, items: Record<string, string>, size = { min: 2, max: 3 }): string {
  const text = readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8');
  const lines = Object.entries(items).map(([k, v]) => `          ${k}: "${v}"\n`);
  const block = `        min_size: ${size.min}\n        max_size: ${size.max}\n        config_items:\n${lines.join('')}    status: {}\n`;
  if (!text.includes(POOL_BLOCK)) throw new Error('examples/clusters.yaml changed: update the test');
  const file = join(dir, 'clusters.yaml');
  writeFileSync(file, text.replace(POOL_BLOCK, block));
  return file;
}

/** A scenario: a web Deployment under a PDB, and `incidents` (nodeIncidents entries). */
function scenario(dir: string, incidents: string): string {
  const file = join(dir, 'scenario.yaml');
  writeFileSync(
    file,
    `seed: 3
clusters:
  ${TEST}:
    workloads:
      - { kind: Deployment, name: web, replicas: 3 }
    pdbs:
      - { name: web, selector: { app: web }, minAvailable: 2 }
${incidents}`,
  );
  return file;
}

function args(command: string[], registry: string, state: string, extra: string[] = []): string[] {
  return [
    ...command,
    ...['--simulate', '--registry', registry, '--directory', 'examples/config', '--state', state],
    ...extra,
    '--output',
    'json',
  ];
}

async function provision(registry: string, state: string, extra: string[] = []) {
  const run = await clm(args(['provision', '--cluster', TEST], registry, state, extra));
  if (run.code !== 0) throw new Error(`provision failed (${run.code}): ${run.out}${run.err}`);
  return JSON.parse(run.out) as { clusters: { status: string; message: string; pdbViolations: number }[] };
}

/** Seconds of virtual time since the world started. */
function elapsed(state: string): number {
  const world = loadWorld(state);
  return (world.clock.now() - world.snapshot().startTime) / 1000;
}

/** The nodes of default-worker the latest run replaced (terminated, not its own extra nodes). */
function replacedBy(state: string): string[] {
  const nodes = Object.values(latestRun(state, TEST).pools['default-worker']!.nodes);
  return nodes
    .filter((n) => n.state === 'terminated' && !n.surplus)
    .map((n) => n.instanceId)
    .sort();
}

function nodesOf(state: string) {
  return Object.values(loadWorld(state).snapshot().kube[TEST]!.nodes).filter((n) => n.pool === 'default-worker');
}

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
