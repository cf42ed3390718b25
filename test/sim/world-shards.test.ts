import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mainStackName, mainStackTags } from '../../lambdas/core/cloudformation/stack-names';
import { SimulatedWorld } from '../../lambdas/sim';
import type { WorldState } from '../../lambdas/sim';
import { SHARD_DIR, WORLD_FILE } from '../../lambdas/sim/persistence';
import { joinWorld, mergeCommon, splitWorld } from '../../lambdas/sim/world-shards';
import { MAIN_TEMPLATE, runningCluster, testCluster } from './fixtures';

// Two clusters in one account and region: they share the account's VPC but nothing they created.
const one = testCluster();
const two = testCluster({
  id: 'aws:123456789012:eu-central-1:kube-2',
  alias: 'kube-2',
  localId: 'kube-2',
  apiServerUrl: 'https://kube-2.example.org',
});

async function twoClusters(): Promise<SimulatedWorld> {
  const { world } = await runningCluster({}, 2, one);
  const ports = world.forCluster(two);
  await ports.stacks.deploy({ name: mainStackName(two), templateBody: MAIN_TEMPLATE, tags: mainStackTags(two) });
  world.advance(1000); // two's main stack is still being created
  return world;
}

const stackNames = (state: WorldState) =>
  Object.values(state.accounts)
    .flatMap((a) => Object.keys(a.stacks))
    .sort();

describe('splitWorld / joinWorld', () => {
  it('puts each cluster’s stacks, groups, templates, instances, exports and events in its own shard', async () => {
    const state = (await twoClusters()).snapshot();
    const { shards } = splitWorld(state);
    const parts = (id: string) => Object.values(shards.get(id)!.accounts);

    expect([...shards.keys()].sort()).toEqual([one.id, two.id].sort());
    expect(parts(one.id).flatMap((p) => Object.keys(p.stacks))).toHaveLength(3);
    expect(parts(one.id).flatMap((p) => Object.keys(p.asgs))).toHaveLength(2);
    expect(parts(one.id).flatMap((p) => Object.keys(p.launchTemplates))).toHaveLength(2);
    expect(parts(one.id).flatMap((p) => Object.values(p.instances))).toHaveLength(3);
    expect(parts(two.id).flatMap((p) => Object.keys(p.stacks))).toEqual([mainStackName(two)]);
    expect(parts(one.id).flatMap((p) => Object.keys(p.exports))).toEqual([`${mainStackName(one)}-sg`]);
    expect(parts(two.id).flatMap((p) => Object.keys(p.exports))).toEqual([]);
    expect(shards.get(two.id)!.events.map((e) => e.type)).toEqual(['stack-done']);
    expect(shards.get(two.id)!.info?.id).toBe(two.id);
  });

  it('joins the shards back into the same world', async () => {
    const state = (await twoClusters()).snapshot();
    const { common, shards } = splitWorld(state);
    expect(joinWorld(common, [...shards.values()].reverse())).toEqual(state);
  });
});

describe('mergeCommon', () => {
  it('adds what this process counted since its base to what is on disk, and keeps the later clock', () => {
    const base = splitWorld(SimulatedWorld.create().snapshot()).common;
    const disk = structuredClone(base);
    disk.apiCalls = { 'stacks.deploy': 5 };
    disk.now += 10_000;
    disk.invariants = { pdbViolations: 1, nodesTerminatedTwice: 0, details: ['theirs'] };
    const mine = structuredClone(base);
    mine.apiCalls = { 'stacks.deploy': 2, 'kube.evictPod': 3 };
    mine.now += 5_000;
    mine.invariants = { pdbViolations: 0, nodesTerminatedTwice: 1, details: ['mine'] };

    const merged = mergeCommon(disk, mine, base);

    expect(merged.apiCalls).toEqual({ 'stacks.deploy': 7, 'kube.evictPod': 3 });
    expect(merged.now).toBe(disk.now);
    expect(merged.invariants).toEqual({ pdbViolations: 1, nodesTerminatedTwice: 1, details: ['theirs', 'mine'] });
  });
});

describe('two processes saving one state directory', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'clm-shards-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps both clusters when each process works on its own one (no whole-world rewrite)', async () => {
    const base = (await runningCluster({}, 1, one)).world;
    await base.forCluster(one).pools.scale(clusterRefOf(one), 'default-worker', 2); // an instance is booting
    base.save(dir);
    const a = SimulatedWorld.load(dir);
    const b = SimulatedWorld.load(dir);

    await a.forCluster(one).stacks.delete(mainStackName(one), { disableTerminationProtection: true });
    a.save(dir);
    await b.forCluster(two).stacks.deploy({
      name: mainStackName(two),
      templateBody: MAIN_TEMPLATE,
      tags: mainStackTags(two),
    });
    b.advance(120_000); // b's stale copy of `one` moves on too (the instance boots), but is not b's to save
    b.save(dir);

    const both = SimulatedWorld.load(dir);
    expect(both.describe(one.id).stacks.find((s) => s.name === mainStackName(one))?.status).toBe('DELETE_IN_PROGRESS');
    expect(both.describe(two.id).stacks.map((s) => s.name)).toEqual([mainStackName(two)]);
    expect(both.apiCalls()['stacks.deploy']).toBe(4); // 3 in the base world, 1 by b
    expect(readdirSync(join(dir, SHARD_DIR))).toHaveLength(2);
  });

  it('saves a cluster a process only watched while nobody else saved it (time passing counts)', async () => {
    (await runningCluster({}, 1, one)).world.save(dir);
    const watcher = SimulatedWorld.load(dir);
    await watcher.forCluster(one).pools.scale({ ...clusterRefOf(one) }, 'default-worker', 2);
    watcher.save(dir);
    const later = SimulatedWorld.load(dir);
    later.runUntilIdle(); // boots the new instance: no port called
    later.save(dir);

    expect(SimulatedWorld.load(dir).describe(one.id).nodes).toHaveLength(3);
  });

  it('reads the earlier single-file world.json and writes it in shards on the first save', async () => {
    const state = (await twoClusters()).snapshot();
    writeFileSync(join(dir, WORLD_FILE), JSON.stringify(state));

    const world = SimulatedWorld.load(dir);
    expect(stackNames(world.snapshot())).toEqual(stackNames(state));
    world.save(dir);

    expect(readdirSync(join(dir, SHARD_DIR))).toHaveLength(2);
    expect(SimulatedWorld.load(dir).snapshot()).toEqual(state);
  });
});

function clusterRefOf(cluster: typeof one) {
  return {
    id: cluster.id,
    name: cluster.id,
    region: cluster.region,
    infrastructureAccount: cluster.infrastructureAccount,
  };
}
