import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RollStepOutput } from '../../lambdas/contracts/cluster-update';
import { IN_PROCESS_WAIT_SECONDS } from '../../lambdas/core/rollout/roll-step-report';
import { rollNodePoolInvocation } from '../../lambdas/tasks/roll-node-pool';
import { SHORT_WAIT_SECONDS } from '../../lambdas/tasks/roll/roll-invocation';
import { HOLDER, TARGET, rollUntilDone, step, setupRoll, type RollScenario, type RollWorld } from './roll-harness';

/**
 * Multi-step rolls of one pool over stateful fakes (FakeNodePoolBackend + FakeKubeCluster on a FakeClock).
 * Each scenario's step sequence is pinned in test/golden/rollout/<name>.golden, one line per step:
 *   #NN t+<seconds>s desired=<ASG desired after the step> <status> [<actions>] wait=<s> [waited=<s>] | <message>
 * (t: when the step acted; waited: how long it then waited in process for a drain PDBs refused)
 * Regenerate after an intended behaviour change with `UPDATE_GOLDEN=1 npx jest test/tasks/roll-node-pool`
 * and review the diff.
 */
const GOLDEN_DIR = join(__dirname, '../golden/rollout');

function expectGolden(name: string, lines: readonly string[]): void {
  const file = join(GOLDEN_DIR, `${name}.golden`);
  const text = `${lines.join('\n')}\n`;
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, text);
  if (!existsSync(file)) throw new Error(`golden file ${file} is missing; run with UPDATE_GOLDEN=1 to create it`);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

const web =
  (replicas: number, minAvailable: number) =>
  (world: RollWorld['env'], nodes: string[]): void => {
    world.kube.addWorkload(
      { kind: 'Deployment', namespace: 'default', name: 'web', replicas, labels: { app: 'web' } },
      Array.from({ length: replicas }, (_, i) => nodes[i % nodes.length]!),
    );
    world.kube.addPdb('default', 'web', { app: 'web' }, minAvailable);
  };

const SCENARIOS: Record<string, RollScenario & { pairingNodes?: number }> = {
  '6-nodes-surge-3': { size: 6, configItems: { update_canary: 'false' }, workloads: web(12, 9) },
  '4-nodes-surge-1-canary': {
    size: 4,
    configItems: { update_max_surge: '1', update_canary: 'true', update_canary_soak: '10m' },
    workloads: web(4, 3),
  },
  'spot-pool-surge-0': { size: 3, pool: { discountStrategy: 'spot' }, workloads: web(3, 1) },
  'pdb-blocks-eviction-twice': {
    size: 3,
    podStartMs: 25_000,
    configItems: { update_max_surge: '1', update_canary: 'false' },
    workloads: (env, nodes) => {
      env.kube.addWorkload({ kind: 'Deployment', namespace: 'db', name: 'db', replicas: 2, labels: { app: 'db' } }, [
        nodes[0]!,
        nodes[0]!,
      ]);
      env.kube.addPdb('db', 'db', { app: 'db' }, 1);
    },
  },
  'stateful-nodes-3-azs': {
    size: 3,
    // The ASG balances launches over AZs counting the outdated nodes too, so the same-AZ pairing needs
    // extra nodes for b and c; once no outdated node is left the roll drains those 2 away again (CLM leaves
    // them to the cluster-autoscaler), so the pool ends at its base size.
    pairingNodes: 2,
    configItems: { update_max_surge: '1', update_canary: 'false' },
    workloads: (env, nodes) => {
      env.kube.addWorkload(
        { kind: 'StatefulSet', namespace: 'data', name: 'pg', replicas: 3, labels: { app: 'pg' } },
        nodes,
      );
      env.kube.addPdb('data', 'pg', { app: 'pg' }, 2);
    },
  },
};

describe('rollNodePool over stateful fakes', () => {
  for (const [name, scenario] of Object.entries(SCENARIOS)) {
    it(`${name}: replaces every outdated node once, keeps PDBs, returns desired to base`, async () => {
      const world = await setupRoll(scenario);

      const result = await rollUntilDone(world);

      const { env } = world;
      const pool = env.pools.pools.get('workers')!;
      expect(result.last.replaced).toBe(world.oldInstances.length);
      expect(pool.instances.filter((i) => world.oldInstances.includes(i.id))).toEqual([]);
      const surplus = [...env.pools.terminated].filter((id) => !world.oldInstances.includes(id));
      expect([...env.pools.terminated].filter((id) => world.oldInstances.includes(id)).sort()).toEqual(
        [...world.oldInstances].sort(),
      );
      expect(surplus).toHaveLength(scenario.pairingNodes ?? 0);
      expect(env.pools.terminatedTwice).toBe(0);
      expect(env.kube.pdbViolations).toBe(0);
      expect(result.pdbBreaches).toEqual([]);
      expect(pool.desired).toBe(world.base);
      expect(pool.instances.every((i) => i.state === 'InService')).toBe(true);
      const apiCalls = env.pools.calls.length + env.kube.calls.length;
      // Measured 15–25 calls per replaced node (listNodes, getPool, patches, evictions); a regression to per-pod polling shows here.
      expect(apiCalls / world.oldInstances.length).toBeLessThan(30);
      expectGolden(name, result.lines);
    });
  }

  it('PDB scenario: the blocker is visible in the step output at least twice', async () => {
    const world = await setupRoll(SCENARIOS['pdb-blocks-eviction-twice']!);

    const result = await rollUntilDone(world);

    // DrainSeconds: each step that finished replacing nodes says how long its longest drain took (cordon to end).
    const finishing = result.outputs.filter((o) => (o.replacedNow ?? 0) > 0);
    expect(finishing.length).toBeGreaterThan(0);
    expect(finishing.every((o) => o.drainSeconds !== undefined && o.drainSeconds >= 0)).toBe(true);
    expect(Math.max(...finishing.map((o) => o.drainSeconds!))).toBeGreaterThan(0);
    expect(result.outputs.filter((o) => !o.replacedNow).every((o) => o.drainSeconds === undefined)).toBe(true);

    // The blocked step waits in process until the PDB allows the eviction (db's new pod Ready), then the next step
    // evicts at once: no Wait state, no back-off.
    const blocked = result.outputs.filter((o) => o.blockedBy?.startsWith('PDB db/db allows 0 disruption(s)'));
    expect(blocked.length).toBe(1);
    expect(blocked[0]!.waitSeconds).toBe(0);
    expect(blocked[0]!.waitedSeconds).toBeGreaterThan(0);
    expect(result.lines[2]).toMatch(/^#03 .*\[evict 1\]/);
  });

  it('PDB scenario: the block is in the run record while the step waits in process, and reported as it was', async () => {
    const world = await setupRoll(SCENARIOS['pdb-blocks-eviction-twice']!);
    const { env } = world;
    const seenWhileWaiting: (string | undefined)[] = [];
    const sleep = env.clock.sleep.bind(env.clock);
    env.clock.sleep = async (ms: number) => {
      const run = await env.progress.getRun(world.cluster.id, TARGET);
      seenWhileWaiting.push(run?.pools.workers?.blockedBy);
      await sleep(ms);
    };

    await rollUntilDone(world);

    expect(seenWhileWaiting.length).toBeGreaterThan(0);
    expect(seenWhileWaiting.every((b) => b?.startsWith('PDB db/db allows 0 disruption(s)'))).toBe(true);
  });

  it('PDB scenario: when a look of the in-process wait fails, the step asks for a Wait of one poll interval', async () => {
    const world = await setupRoll(SCENARIOS['pdb-blocks-eviction-twice']!);
    const { env } = world;
    let waiting = false;
    const sleep = env.clock.sleep.bind(env.clock);
    env.clock.sleep = async (ms: number) => {
      waiting = true;
      await sleep(ms);
    };
    const listPdbs = env.kube.listPdbs.bind(env.kube);
    env.kube.listPdbs = async (namespace?: string) => {
      if (waiting) throw new Error('API server unreachable');
      return listPdbs(namespace);
    };

    const first = await step(world, 1, HOLDER);
    env.clock.advance(first.output.waitSeconds * 1000);
    const second = await step(world, 2, HOLDER, first.output);

    expect(second.output).toMatchObject({ status: 'IN_PROGRESS', waitSeconds: 10, waitedSeconds: 10 });
  });

  it('one invocation sleeps the short waits and steps on: only boots go through a Wait state', async () => {
    const world = await setupRoll(SCENARIOS['6-nodes-surge-3']!);
    const { env } = world;
    const outputs: RollStepOutput[] = [];
    let previous: RollStepOutput | undefined;
    for (let i = 0; i < 20 && previous?.status !== 'DONE'; i++) {
      const started = env.clock.now();
      previous = await rollNodePoolInvocation(
        {
          clusterId: world.cluster.id,
          targetVersion: TARGET,
          holder: HOLDER,
          pool: 'workers',
          options: { applyOnly: false },
          ...(previous ? { step: previous } : {}),
        },
        env.ports,
      );
      outputs.push(previous);
      expect((env.clock.now() - started) / 1000).toBe(previous.waitedSeconds ?? 0);
      expect(previous.waitedSeconds ?? 0).toBeLessThanOrEqual(IN_PROCESS_WAIT_SECONDS);
      env.clock.advance(previous.waitSeconds * 1000);
    }
    // the golden roll of this scenario takes 8 steps; here 5 invocations: each ends at a boot's wait, after waiting
    // for a drain PDBs refused (waitSeconds 0, the block in its output), or done
    expect(outputs.map((o) => o.status)).toEqual(['IN_PROGRESS', 'IN_PROGRESS', 'IN_PROGRESS', 'IN_PROGRESS', 'DONE']);
    const ends = outputs
      .slice(0, -1)
      .map((o) => (o.waitSeconds > SHORT_WAIT_SECONDS ? 'boot' : o.waitSeconds === 0 && o.blockedBy ? 'pdb' : 'other'));
    expect(ends).toEqual(['boot', 'pdb', 'boot', 'pdb']);
    // what the steps replaced adds up (the NodesReplaced metric)
    expect(outputs.reduce((n, o) => n + (o.replacedNow ?? 0), 0)).toBe(6);
    expect(env.kube.pdbViolations).toBe(0);
  });

  it('canary scenario: exactly one node is cordoned before the first termination, and the soak is honoured', async () => {
    const world = await setupRoll(SCENARIOS['4-nodes-surge-1-canary']!);

    const result = await rollUntilDone(world);

    const firstTerminate = result.lines.findIndex((l) => l.includes('terminate'));
    const cordonsBefore = result.lines
      .slice(0, firstTerminate + 1)
      .flatMap((l) => /cordon ([^;\]]+)/.exec(l)?.[1]?.split(',') ?? []);
    expect(cordonsBefore).toHaveLength(1);
    const terminatedAt = Number(/t\+(\d+)s/.exec(result.lines[firstTerminate]!)![1]);
    const nextCordon = result.lines.slice(firstTerminate + 1).find((l) => l.includes('cordon'))!;
    expect(Number(/t\+(\d+)s/.exec(nextCordon)![1]) - terminatedAt).toBeGreaterThanOrEqual(600);
  });
});
