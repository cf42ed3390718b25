// The roll's safety gates end to end: `clm provision --simulate` rolls kube-test's default-worker pool in a world with
// a StatefulSet whose volumes attach to their nodes (VolumeAttachments detach a while after the pod leaves), a
// simulated CloudWatch alarm, and node annotations set as an external controller would; and a pool removed from the
// registry is drained away through the rollout child. 0 PDB violations and 0 double terminations throughout.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import { createRegistry } from '../../lambdas/adapters/registry/create-registry';
import { hookPrefix } from '../../lambdas/core/rollout/lifecycle-hooks';
import type { SimulatedWorld } from '../../lambdas/sim';
import {
  ROOT,
  TEST,
  clm,
  configWithNewImage,
  copyState,
  latestRun,
  loadWorld,
  poolInstances,
  tempDir,
} from './support/clm-session';

interface Summary {
  readonly id: string;
  readonly status: string;
  readonly nodesReplaced: number;
  readonly pdbViolations: number;
}

interface RegistryDoc {
  clusters: { id: string; config_items: Record<string, string>; node_pools: Record<string, unknown>[] }[];
}

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** examples/clusters.yaml with kube-test's items and pools edited, written into `dir`. */
function registry(dir: string, edit: (cluster: RegistryDoc['clusters'][number]) => void): string {
  const doc = load(readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8')) as RegistryDoc;
  edit(doc.clusters.find((c) => c.id === TEST)!);
  const file = join(dir, 'clusters.yaml');
  writeFileSync(file, dump(doc));
  return file;
}

const withExtraPool = (cluster: RegistryDoc['clusters'][number]): void => {
  const worker = cluster.node_pools.find((p) => p.name === 'default-worker')!;
  cluster.node_pools.push({ ...worker, name: 'batch-worker', min_size: 2, max_size: 2 });
};

/** `clm provision --simulate` on kube-test (text output: the progress lines and the summary line). */
async function provision(
  state: string,
  registryFile: string,
  config: string,
  ...extra: string[]
): Promise<{ code: number; out: string; summary: Summary }> {
  const run = await clm([
    ...['provision', '--simulate', '--registry', registryFile, '--directory', config, '--state', state],
    ...['--cluster', TEST, ...extra],
  ]);
  const line = new RegExp(`^(\\S+)\\s+${TEST} .* nodes replaced (\\d+), PDB violations (\\d+)`, 'm').exec(run.out);
  if (!line) throw new Error(`no summary line in:\n${run.out}\n${run.err}`);
  const summary = { id: TEST, status: line[1]!, nodesReplaced: Number(line[2]), pdbViolations: Number(line[3]) };
  return { code: run.code, out: run.out, summary };
}

async function problems(state: string, registryFile: string): Promise<string[]> {
  const status = await clm([
    'status',
    '--registry',
    registryFile,
    '--state',
    state,
    '--cluster',
    TEST,
    '--output',
    'json',
  ]);
  const doc = JSON.parse(status.out) as { clusters: { problems?: (string | { title: string })[] }[] };
  return (doc.clusters[0]?.problems ?? []).map((p) => (typeof p === 'string' ? p : p.title));
}

/** Change the simulated world saved in `state` (faults, node annotations) as a test's hand would. */
async function editWorld(
  state: string,
  registryFile: string,
  edit: (world: SimulatedWorld, cluster: never) => Promise<void>,
) {
  const world = loadWorld(state);
  const cluster = (await createRegistry(registryFile, { cwd: ROOT }).listClusters()).find((c) => c.id === TEST)!;
  await edit(world, cluster as never);
  world.save(state);
}

describe('roll safety end to end (simulated)', () => {
  let base: string;
  let scenario: string;
  beforeAll(async () => {
    base = tempDir('roll-safety');
    temps.push(base);
    // The default scenario (web Deployment, postgres StatefulSet with volumes, PDBs) with a slow volume detach.
    const doc = load(readFileSync(join(ROOT, 'examples/scenarios/default.yaml'), 'utf8')) as {
      timings: Record<string, number>;
    };
    doc.timings.volumeDetachSeconds = 45;
    scenario = join(base, 'scenario.yaml');
    writeFileSync(scenario, dump(doc));
    const created = await provision(base, registry(base, withExtraPool), 'examples/config', '--scenario', scenario);
    expect(created.summary.status).toBe('succeeded');
  }, 120_000);

  it('waits for volume attachments to go before terminating a node, and records no problem', async () => {
    const state = copyState(base, 'volumes');
    const config = configWithNewImage();
    temps.push(state, config);
    const file = registry(state, withExtraPool);

    const run = await provision(state, file, config);

    expect(run.summary).toMatchObject({ status: 'succeeded', pdbViolations: 0 });
    expect(run.summary.nodesReplaced).toBeGreaterThanOrEqual(2);
    const lines = run.out.split('\n').filter((l) => l.includes('volume attachment(s) on node'));
    expect(lines.length).toBeGreaterThan(0);
    expect(loadWorld(state).invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
    expect(await problems(state, file)).toEqual([]);
  }, 120_000);

  it('stops after the canary while the pool alarm is ALARM, and goes on when it is OK again', async () => {
    const state = copyState(base, 'alarm');
    const config = configWithNewImage();
    temps.push(state, config);
    const file = registry(state, (c) => {
      withExtraPool(c);
      c.config_items.update_health_alarm = 'kube-test-5xx';
    });
    let alarmEnds = 0;
    await editWorld(state, file, async (world) => {
      const elapsed = (world.now - Date.parse(world.scenario.startTime)) / 1000;
      alarmEnds = world.now + 20 * 60_000;
      world.addFaults({ alarms: [{ name: 'kube-test-5xx', fromSeconds: 0, untilSeconds: elapsed + 20 * 60 }] });
    });

    const run = await provision(state, file, config);

    expect(run.summary).toMatchObject({ status: 'succeeded', pdbViolations: 0 });
    expect(
      run.out.split('\n').some((l) => l.includes('blocked by health gate: CloudWatch alarm kube-test-5xx is ALARM')),
    ).toBe(true);
    const nodes = Object.values(latestRun(state, TEST).pools['default-worker']!.nodes).filter((n) => !n.surplus);
    const cordonedDuringAlarm = nodes.filter((n) => n.cordonedAt! < alarmEnds);
    expect(nodes.length).toBeGreaterThanOrEqual(2);
    expect(cordonedDuringAlarm).toHaveLength(1);
  }, 120_000);

  it('fails with a problem naming the alarm when it stays ALARM past update_health_timeout', async () => {
    const state = copyState(base, 'alarm-timeout');
    const config = configWithNewImage();
    temps.push(state, config);
    const file = registry(state, (c) => {
      withExtraPool(c);
      c.config_items.update_health_alarm = 'kube-test-5xx';
      c.config_items.update_health_timeout = '10m';
    });
    await editWorld(state, file, async (world) => world.addFaults({ alarms: [{ name: 'kube-test-5xx' }] }));

    const run = await provision(state, file, config);

    expect(run.summary.status).toBe('failed');
    expect(run.code).not.toBe(0);
    expect(await problems(state, file)).toEqual([
      expect.stringMatching(
        /^\S+: health gate: CloudWatch alarm kube-test-5xx is ALARM \(unhealthy for \d+s, update_health_timeout 600s\)/,
      ),
    ]);
    expect(loadWorld(state).invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  }, 120_000);

  it('holds a node with a pre-drain hook (never cordoned), says so, and fails after update_hook_timeout', async () => {
    const state = copyState(base, 'hooks');
    const config = configWithNewImage();
    temps.push(state, config);
    const file = registry(state, (c) => {
      withExtraPool(c);
      c.config_items.update_hook_timeout = '10m';
      c.config_items.update_max_surge = '1';
      c.config_items.update_canary = 'false';
    });
    const old = poolInstances(loadWorld(state), TEST)['default-worker']!.alive;
    let hooked = '';
    await editWorld(state, file, async (world, cluster) => {
      const kube = world.forCluster(cluster).kube;
      const nodes = (await kube.listNodes()).filter((n) => old.some((id) => n.providerId.endsWith(`/${id}`)));
      hooked = nodes.sort((a, b) => a.name.localeCompare(b.name))[0]!.name;
      for (const node of nodes)
        await kube.patchNode(node.name, { annotations: { [`${hookPrefix('pre-drain')}backup`]: '' } });
    });

    const run = await provision(state, file, config);

    expect(run.summary.status).toBe('failed');
    expect(run.out.split('\n').some((l) => l.includes('blocked by pre-drain hook(s) backup on node'))).toBe(true);
    expect(await problems(state, file)).toEqual([
      expect.stringMatching(
        /^\S+: node ip-[\d-]+\.eu-central-1\.compute\.internal: pre-drain hook\(s\) backup still set after \d+s \(update_hook_timeout 600s\)/,
      ),
    ]);
    const world = loadWorld(state);
    const node = world.snapshot().kube[TEST]!.nodes[hooked]!;
    expect({ unschedulable: node.unschedulable, phase: node.annotations['clm.zalando.org/lifecycle-phase'] }).toEqual({
      unschedulable: false,
      phase: 'pre-drain',
    });
    expect(world.invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  }, 120_000);

  it('drains a pool removed from the registry through the rollout child, then deletes its stack', async () => {
    const state = copyState(base, 'removed');
    temps.push(state);
    const file = registry(state, () => undefined);
    const before = poolInstances(loadWorld(state), TEST)['batch-worker']!.alive;

    const run = await provision(state, file, 'examples/config');

    expect(run.summary).toMatchObject({ status: 'succeeded', pdbViolations: 0 });
    expect(before.length).toBe(2);
    const after = poolInstances(loadWorld(state), TEST)['batch-worker']!;
    expect(after.alive).toEqual([]);
    expect(after.gone).toEqual(expect.arrayContaining(before));
    const lines = run.out.split('\n');
    expect(lines.some((l) => l.includes('RollStep') && l.includes('batch-worker:'))).toBe(true);
    expect(latestRun(state, TEST).pools['batch-worker']).toMatchObject({ removal: true, replaced: 2, status: 'done' });
    const world = loadWorld(state);
    expect(
      world
        .describe(TEST)
        .stacks.map((s) => s.name)
        .filter((n) => n.includes('batch-worker')),
    ).toEqual([]);
    expect(world.invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  }, 120_000);
});
