import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimulatedWorld } from '../../lambdas/sim';
import {
  mainStackName,
  mainStackTags,
  nodePoolStackName,
  nodePoolStackTags,
} from '../../lambdas/core/cloudformation/stack-names';
import { ValidationError } from '../../lambdas/shared/errors';
import { MAIN_TEMPLATE, clusterRef, poolTemplate, subnetsOf, testCluster } from './fixtures';

const cluster = testCluster();
const SCENARIO = {
  seed: 99,
  clusters: {
    [cluster.id]: {
      workloads: [
        { kind: 'Deployment' as const, name: 'web', replicas: 4 },
        { kind: 'StatefulSet' as const, name: 'db', replicas: 2, volumeClaims: ['data'] },
        {
          kind: 'DaemonSet' as const,
          name: 'agent',
          namespace: 'kube-system',
          tolerations: [{ operator: 'Exists' as const }],
        },
      ],
      pdbs: [{ name: 'web', selector: { app: 'web' }, maxUnavailable: 1 }],
    },
  },
};

type Hop = (world: SimulatedWorld) => SimulatedWorld;

/** A small node roll, one step at a time; `hop` may swap the world for a saved-and-reloaded copy between steps. */
async function drive(start: SimulatedWorld, hop: Hop): Promise<SimulatedWorld> {
  let world = start;
  const ports = () => world.forCluster(cluster);
  const pool = (userData: string) => poolTemplate({ subnets: ['x'], desired: 3, userData });
  const subnets = await subnetsOf(ports(), cluster);
  const workerTemplate = (userData: string) => pool(userData).replace('[x]', `[${subnets.join(', ')}]`);
  await ports().stacks.deploy({
    name: mainStackName(cluster),
    templateBody: MAIN_TEMPLATE,
    tags: mainStackTags(cluster),
  });
  await world.artifacts.put('rendered/config.json', '{"version":1}');
  world = hop(world);
  world.advance(60_000);
  for (const p of cluster.nodePools) {
    await ports().stacks.deploy({
      name: nodePoolStackName(cluster, p.name),
      templateBody: workerTemplate('v1'),
      tags: nodePoolStackTags(cluster, p),
    });
  }
  world = hop(world);
  world.runUntilIdle();
  world = hop(world);
  await ports().stacks.deploy({
    name: nodePoolStackName(cluster, 'default-worker'),
    templateBody: workerTemplate('v2'),
    tags: nodePoolStackTags(cluster, cluster.nodePools[1]),
  });
  world.advance(45_000);
  world = hop(world);
  await ports().pools.scale(clusterRef(cluster), 'default-worker', 4);
  world.advance(100_000);
  world = hop(world);
  const outdated = (await ports().pools.getPool(clusterRef(cluster), 'default-worker'))!.instances.filter(
    (i) => i.outdated,
  );
  const node = (await ports().kube.listNodes()).find((n) => n.providerId.endsWith(outdated[0].instanceId))!;
  await ports().kube.patchNode(node.name, { unschedulable: true });
  for (const pod of await ports().kube.listPods({ nodeName: node.name }))
    await ports().kube.evictPod(pod.namespace, pod.name);
  world = hop(world);
  world.advance(5_000);
  world = hop(world);
  world.advance(40_000);
  await ports().pools.terminate(clusterRef(cluster), outdated[0].instanceId, true);
  world = hop(world);
  world.runUntilIdle();
  return world;
}

describe('saving and loading the simulated world', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'clm-sim-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('continues exactly as a world that was never saved (determinism across restarts)', async () => {
    const straight = await drive(SimulatedWorld.create(SCENARIO), (w) => w);
    const hopped = await drive(SimulatedWorld.create(SCENARIO), (w) => {
      w.save(dir);
      return SimulatedWorld.load(dir);
    });

    expect(hopped.snapshot()).toEqual(straight.snapshot());
    expect(hopped.describe(cluster.id)).toEqual(straight.describe(cluster.id));
    expect(await hopped.artifacts.get('rendered/config.json')).toBe('{"version":1}');
    expect(straight.describe(cluster.id).nodes.filter((n) => n.outdated)).toHaveLength(2);
  });

  it('gives different instance ids for a different seed, and the same for the same seed', async () => {
    const ids = async (seed: number) =>
      (await drive(SimulatedWorld.create({ ...SCENARIO, seed }), (w) => w))
        .describe(cluster.id)
        .pools.flatMap((p) => p.instances.map((i) => i.id));

    expect(await ids(1)).toEqual(await ids(1));
    expect(await ids(1)).not.toEqual(await ids(2));
  });

  it('writes through temporary files and leaves none behind', async () => {
    const world = SimulatedWorld.create(SCENARIO);
    await world.artifacts.put('a', '1');
    await world.artifacts.put('b', '2');

    world.save(dir);
    world.save(dir);

    expect(readdirSync(dir).sort()).toEqual(['artifacts', 'world', 'world.json']);
    expect(readdirSync(join(dir, 'world')).some((f) => f.endsWith('.tmp'))).toBe(false);
    expect(readdirSync(join(dir, 'artifacts'))).toHaveLength(2);
    expect(readdirSync(join(dir, 'artifacts')).some((f) => f.endsWith('.tmp'))).toBe(false);
  });

  it('writes all artefacts when saving into a new directory', async () => {
    const world = SimulatedWorld.create();
    await world.artifacts.put('a', '1');
    world.save(dir);
    const other = join(dir, 'copy');

    SimulatedWorld.load(dir).save(other);

    expect(await SimulatedWorld.load(other).artifacts.get('a')).toBe('1');
  });

  it('loadOrCreate starts fresh in an empty directory and resumes a saved one', async () => {
    const fresh = SimulatedWorld.loadOrCreate(dir, { seed: 5 });
    fresh.advance(1234);
    fresh.save(dir);

    expect(SimulatedWorld.loadOrCreate(dir, { seed: 6 }).now).toBe(fresh.now);
    expect(existsSync(join(dir, 'world.json'))).toBe(true);
  });

  it('refuses a file that is not a saved world, naming it', () => {
    writeFileSync(join(dir, 'world.json'), '{"format": 7}');

    expect(() => SimulatedWorld.load(dir)).toThrow(ValidationError);
    expect(() => SimulatedWorld.load(dir)).toThrow(join(dir, 'world.json'));
  });
});
