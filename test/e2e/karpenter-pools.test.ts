// Karpenter pools end to end over the simulated world (`clm provision --simulate`, examples/karpenter-clusters.yaml):
// the cluster is created with a worker-karpenter pool (its NodePool and EC2NodeClass applied once the Karpenter
// controller is ready; the simulated Karpenter launches the nodes the pool's workload needs); a new image in the
// EC2NodeClass drifts every node, which CLM replaces with 0 PDB violations and never more nodes in flight than the
// NodePool's disruption budget; removing the pool from the registry drains its nodes and deletes its objects; a
// decommission terminates what Karpenter launched before the stacks go.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import type { InstanceRecord } from '../../lambdas/sim/world-state';
import { startClm, stopOutsideLock } from './support/clm-process';
import { ROOT, clm, latestRun, loadWorld, tempDir } from './support/clm-session';

const BURST = 'aws:123456789012:eu-central-1:kube-burst';
const NEW_IMAGE = 'ami-0feedface0002';

interface RegistryDoc {
  clusters: { id: string; config_items: Record<string, string>; node_pools: Record<string, any>[] }[];
}

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function registry(dir: string, name: string, edit: (cluster: RegistryDoc['clusters'][number]) => void): string {
  const doc = load(readFileSync(join(ROOT, 'examples/karpenter-clusters.yaml'), 'utf8')) as RegistryDoc;
  edit(doc.clusters[0]!);
  const file = join(dir, name);
  writeFileSync(file, dump(doc));
  return file;
}

async function provision(state: string, registryFile: string) {
  const run = await clm([
    ...['provision', '--simulate', '--registry', registryFile, '--directory', 'examples/config', '--state', state],
  ]);
  const line = new RegExp(`^(\\S+)\\s+${BURST} .* nodes replaced (\\d+), PDB violations (\\d+)`, 'm').exec(run.out);
  if (!line) throw new Error(`no summary line in:\n${run.out}\n${run.err}`);
  return { code: run.code, out: run.out, status: line[1], replaced: Number(line[2]), pdbViolations: Number(line[3]) };
}

/** The burst pool's instances in the world: alive (Pending/InService) and every one ever launched. */
function burstInstances(state: string): { alive: InstanceRecord[]; all: InstanceRecord[] } {
  const all = Object.values(loadWorld(state).snapshot().accounts)
    .flatMap((account) => Object.values(account.instances))
    .filter((i) => i.cluster === BURST && i.tags['karpenter.sh/nodepool'] === 'burst');
  return { alive: all.filter((i) => i.state === 'Pending' || i.state === 'InService'), all };
}

function karpenterObjects(state: string): string[] {
  return Object.keys(loadWorld(state).snapshot().kube[BURST]!.objects)
    .filter((key) => key.startsWith('karpenter.'))
    .map((key) => key.replace(/\/\/+/, '/'))
    .sort();
}

/** The most nodes the roll had cordoned and not yet terminated at one time (from the run's progress record). */
function maxInFlight(state: string, pool: string): number {
  const nodes = Object.values(latestRun(state, BURST).pools[pool]!.nodes);
  const edges = nodes.flatMap((n) => [
    { at: n.cordonedAt!, d: 1 },
    { at: n.terminatedAt ?? Infinity, d: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.d - b.d);
  let now = 0;
  let most = 0;
  for (const e of edges) most = Math.max(most, (now += e.d));
  return most;
}

describe('Karpenter pools (worker-karpenter) in the simulated world', () => {
  const state = tempDir('karpenter');
  temps.push(state);

  it('creates the cluster, applies the NodePool and EC2NodeClass after the controller, and Karpenter launches the nodes', async () => {
    const created = await provision(state, join(ROOT, 'examples/karpenter-clusters.yaml'));
    expect(created).toMatchObject({ code: 0, status: 'succeeded', pdbViolations: 0 });
    const lines = created.out.split('\n');
    const manifests = lines.findIndex((l) => / ApplyManifests: Applied /.test(l));
    const waiting = lines.findIndex((l) => / ApplyKarpenterPools: Waiting for the Karpenter controller/.test(l));
    const applied = lines.findIndex((l) => / ApplyKarpenterPools: Applied 2 Karpenter object\(s\) of 1 pool/.test(l));
    expect(manifests).toBeGreaterThan(0);
    expect(waiting).toBeGreaterThan(manifests);
    expect(applied).toBeGreaterThan(waiting);
    expect(karpenterObjects(state)).toEqual(
      expect.arrayContaining(['karpenter.k8s.aws/EC2NodeClass/burst', 'karpenter.sh/NodePool/burst']),
    );
    // six burst pods, two per node (kubelet maxPods 3, one of them node-exporter): three NodeClaims and instances
    expect(burstInstances(state).alive).toHaveLength(3);
    expect(karpenterObjects(state).filter((k) => k.startsWith('karpenter.sh/NodeClaim/'))).toHaveLength(3);
  }, 120_000);

  it('replaces every drifted node after an EC2NodeClass change: 0 PDB violations, never more in flight than the budget', async () => {
    const before = burstInstances(state).alive.map((i) => i.id);
    const changed = registry(state, 'new-image.yaml', (c) => {
      c.node_pools.find((p) => p.name === 'burst')!.config_items.ami_id = NEW_IMAGE;
    });
    // `clm plan` shows what ApplyKarpenterPools would change, as for the manifests
    const plan = await clm([
      'plan',
      '--simulate',
      '--registry',
      changed,
      '--directory',
      'examples/config',
      '--state',
      state,
    ]);
    expect(plan.out).toContain('update EC2NodeClass burst (node-pools/burst/provisioners.yaml)');
    expect(plan.out).toContain(`change spec.amiSelectorTerms[0].id: "ami-0a1b2c3d4e5f60718" -> "${NEW_IMAGE}"`);
    expect(plan.out).not.toMatch(/NodePool burst/);
    // the new image drifts the pool's 3 nodes: 2 at a time (its budget "2")
    expect(plan.out).toContain('roll burst: 3 node(s) in 2 batch(es)');
    const rolled = await provision(state, changed);
    expect(rolled).toMatchObject({ code: 0, status: 'succeeded', replaced: 3, pdbViolations: 0 });
    expect(rolled.out).toMatch(/ApplyKarpenterPools: Karpenter pools applied \(burst\); to roll: burst/);
    const after = burstInstances(state);
    expect(after.alive).toHaveLength(3);
    expect(after.alive.map((i) => i.id).filter((id) => before.includes(id))).toEqual([]);
    expect(after.alive.every((i) => i.tags['sim:image-id'] === NEW_IMAGE)).toBe(true);
    // the NodePool's budget is "2": two nodes went together at most (and at least once, so the budget was used)
    expect(maxInFlight(state, 'burst')).toBe(2);
    expect(loadWorld(state).snapshot().invariants).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
    // run again: the cluster is at its target version, nothing drifted, nothing rolls (the no-op check only)
    const again = await provision(state, changed);
    expect(again.code).toBe(0);
    expect(again.out).not.toMatch(/RollStep|ApplyKarpenterPools/);
    expect(
      burstInstances(state)
        .alive.map((i) => i.id)
        .sort(),
    ).toEqual(after.alive.map((i) => i.id).sort());
  }, 180_000);

  it('removes the pool: its NodePool goes, its nodes are drained away, then its EC2NodeClass goes', async () => {
    const removed = registry(state, 'removed.yaml', (c) => {
      c.node_pools = c.node_pools.filter((p) => p.name !== 'burst');
      c.config_items.burst_replicas = '0';
    });
    const run = await provision(state, removed);
    expect(run).toMatchObject({ code: 0, status: 'succeeded', pdbViolations: 0 });
    expect(run.out).toMatch(/RemoveDeletedPools: .*deleted NodePool burst; Karpenter pool burst: nodes to drain/);
    expect(run.out).toMatch(/RemoveDrainedPools: Karpenter: deleted EC2NodeClass burst/);
    expect(burstInstances(state).alive).toEqual([]);
    expect(karpenterObjects(state)).toEqual([]);
    const nodes = loadWorld(state).describe(BURST).nodes;
    expect(nodes.filter((n) => n.pool === 'burst')).toEqual([]);
    expect(loadWorld(state).snapshot().invariants).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  }, 180_000);
});

describe("a NodePool budget that freezes disruptions on a schedule (Karpenter's schedule and duration)", () => {
  it('holds the roll while the window is open, then replaces every drifted node', async () => {
    const state = tempDir('karpenter-freeze');
    temps.push(state);
    expect((await provision(state, join(ROOT, 'examples/karpenter-clusters.yaml'))).code).toBe(0);
    // a window opening at the world's current minute (UTC), for an hour
    const opens = new Date(Math.floor(loadWorld(state).snapshot().now / 60_000) * 60_000);
    const cron = `${opens.getUTCMinutes()} ${opens.getUTCHours()} ${opens.getUTCDate()} ${opens.getUTCMonth() + 1} *`;
    const closes = opens.getTime() + 3_600_000;
    const frozen = registry(state, 'frozen.yaml', (c) => {
      const items = c.node_pools.find((p) => p.name === 'burst')!.config_items;
      Object.assign(items, { ami_id: NEW_IMAGE, disruption_freeze_schedule: cron, disruption_freeze_duration: '1h' });
    });

    const plan = await clm([
      'plan',
      '--simulate',
      '--registry',
      frozen,
      '--directory',
      'examples/config',
      '--state',
      state,
    ]);
    const rolled = await provision(state, frozen);

    // the plan says when the roll can start, and its batches are those of the budget after the window ("2")
    expect(plan.out).toContain(
      `roll burst: 3 node(s) in 2 batch(es), about 20 min, not before ${new Date(closes).toISOString()} (disruption budget 0 (schedule "${cron}" for 1h))`,
    );
    expect(rolled).toMatchObject({ code: 0, status: 'succeeded', replaced: 3, pdbViolations: 0 });
    expect(rolled.out).toContain(
      `waiting for the disruption budget 0 (schedule "${cron}" for 1h) to end at ${new Date(closes).toISOString()}`,
    );
    const nodes = Object.values(latestRun(state, BURST).pools.burst!.nodes);
    expect(nodes).toHaveLength(3);
    expect(Math.min(...nodes.map((n) => n.cordonedAt!))).toBeGreaterThanOrEqual(closes);
    expect(burstInstances(state).alive.every((i) => i.tags['sim:image-id'] === NEW_IMAGE)).toBe(true);
  }, 180_000);
});

describe('decommissioning a cluster with a Karpenter pool', () => {
  it('terminates the instances Karpenter launched before deleting the stacks', async () => {
    const state = tempDir('karpenter-decommission');
    temps.push(state);
    const file = join(ROOT, 'examples/karpenter-clusters.yaml');
    expect((await provision(state, file)).code).toBe(0);
    expect(burstInstances(state).alive.length).toBeGreaterThan(0);
    const gone = await clm([
      'decommission',
      '--simulate',
      '--registry',
      file,
      '--directory',
      'examples/config',
      '--state',
      state,
    ]);
    expect(gone.code).toBe(0);
    expect(gone.out).toMatch(/Terminating 3 Karpenter instance\(s\) before the stacks/);
    expect(burstInstances(state).alive).toEqual([]);
    expect(loadWorld(state).describe(BURST).stacks).toEqual([]);
  }, 180_000);
});

describe('a Karpenter controller that never becomes ready', () => {
  it('stops the update at ApplyKarpenterPools after karpenter_controller_timeout with a problem that says why', async () => {
    const state = tempDir('karpenter-timeout');
    temps.push(state);
    const file = registry(state, 'clusters.yaml', (c) => {
      c.config_items.karpenter_controller_timeout = '5m';
    });
    const scenario = join(state, 'scenario.yaml');
    writeFileSync(
      scenario,
      dump({ faults: { podsNeverReady: [{ namespace: 'kube-system', namePrefix: 'karpenter-' }] } }),
    );
    const run = await clm([
      ...['provision', '--simulate', '--scenario', scenario, '--registry', file, '--directory', 'examples/config'],
      ...['--state', state],
    ]);
    expect(run.code).not.toBe(0);
    expect(run.out).toMatch(
      /ApplyKarpenterPools: Waiting for the Karpenter controller .*Deployment kube-system\/karpenter has 0\/1 replicas ready/,
    );
    expect(`${run.out}${run.err}`).toMatch(
      /the Karpenter controller was not ready 5 minutes after the manifests were applied: Deployment kube-system\/karpenter has 0\/1 replicas ready; the provisioners of burst were not applied/,
    );
    expect(karpenterObjects(state).filter((k) => !k.includes('CustomResourceDefinition'))).toEqual([]);
  }, 120_000);
});

describe('an interrupted Karpenter roll', () => {
  it('continues from the stored progress: the provisioners are not applied twice, each drifted node replaced once', async () => {
    const state = tempDir('karpenter-interrupt');
    temps.push(state);
    expect((await provision(state, join(ROOT, 'examples/karpenter-clusters.yaml'))).code).toBe(0);
    const old = burstInstances(state).alive.map((i) => i.id);
    const changed = registry(state, 'new-image.yaml', (c) => {
      c.node_pools.find((p) => p.name === 'burst')!.config_items.ami_id = NEW_IMAGE;
    });
    const args = ['provision', '--simulate', '--registry', changed, '--directory', 'examples/config', '--state', state];

    const child = startClm(args);
    await child.progress(/ApplyKarpenterPools: Applied 2 Karpenter object/);
    await stopOutsideLock(child.pid, state);
    process.kill(child.pid, 'SIGINT');
    process.kill(child.pid, 'SIGCONT');
    const stopped = await child.done;
    expect(stopped.code).toBe(130);

    const resumed = await provision(state, changed);
    expect(resumed).toMatchObject({ code: 0, status: 'succeeded', pdbViolations: 0 });
    expect(resumed.out).not.toMatch(/ApplyKarpenterPools: Applied/);
    const after = burstInstances(state);
    expect(
      after.all.filter((i) => old.includes(i.id)).every((i) => i.state !== 'Pending' && i.state !== 'InService'),
    ).toBe(true);
    expect(after.alive).toHaveLength(3);
    expect(after.alive.every((i) => i.tags['sim:image-id'] === NEW_IMAGE)).toBe(true);
    expect(loadWorld(state).snapshot().invariants).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  }, 180_000);
});
