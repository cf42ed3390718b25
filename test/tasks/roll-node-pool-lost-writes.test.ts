import { HOLDER, rollUntilDone, setupRoll, step, type RollScenario, type RollWorld } from './roll-harness';
import type { RollStepOutput } from '../../lambdas/contracts/cluster-update';
import { clusterRef } from '../../lambdas/core/model/cluster-ref';
import { poolsToRoll } from '../../lambdas/tasks/stacks/pools-to-roll';

/**
 * A step acts on the world and its progress write is lost (the process died between the two, or the write failed and
 * the step is retried): the roll must still end with the pool at its size before the roll — desired and bounds —
 * however much surge and pairing that step had added. Every step of each roll is tried in turn.
 */
const SCENARIOS: Record<string, RollScenario> = {
  'surge 3, 6 nodes': {
    size: 6,
    configItems: { update_canary: 'false' },
    workloads: (env, nodes) => {
      env.kube.addWorkload(
        { kind: 'Deployment', namespace: 'default', name: 'web', replicas: 12, labels: { app: 'web' } },
        Array.from({ length: 12 }, (_, i) => nodes[i % nodes.length]!),
      );
      env.kube.addPdb('default', 'web', { app: 'web' }, 9);
    },
  },
  'surge 1, stateful nodes in 3 zones (pairing nodes added and taken back)': {
    size: 3,
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

function sizeOf(world: RollWorld): string {
  const pool = world.env.pools.pools.get('workers')!;
  return `desired ${pool.desired} (min ${pool.min}, max ${pool.max})${pool.preRoll ? ' marked' : ''}`;
}

/** Steps 1..lost−1 as usual; step `lost` acts but its writes to the run record are thrown away. */
async function runWithLostWrite(world: RollWorld, lost: number): Promise<RollStepOutput | undefined> {
  let previous: RollStepOutput | undefined;
  for (let i = 1; i <= lost; i++) {
    const saved = structuredClone(world.env.progress.data.runs);
    const { output } = await step(world, i, HOLDER, previous);
    if (i === lost) {
      world.env.progress.data.runs = saved;
      return previous;
    }
    if (output.status === 'DONE') return undefined;
    previous = output;
    world.env.clock.advance(output.waitSeconds * 1000);
  }
  return previous;
}

describe('rollNodePool: a step whose progress write was lost', () => {
  for (const [name, scenario] of Object.entries(SCENARIOS)) {
    it(`${name}: the pool ends at its size before the roll, whichever step lost its write`, async () => {
      // Arrange
      const reference = await setupRoll(scenario);
      const before = sizeOf(reference);
      const { steps } = await rollUntilDone(reference);
      expect(sizeOf(reference)).toBe(before);
      const failures: string[] = [];

      for (let lost = 1; lost <= steps; lost++) {
        const world = await setupRoll(scenario);
        // Act
        const previous = await runWithLostWrite(world, lost);
        const resumed = await rollUntilDone(world, { from: lost, ...(previous ? { previous } : {}) });
        // Assert (collected: one run names every step that breaks)
        const problems = [
          resumed.last.status === 'DONE' ? '' : `ended ${resumed.last.status}`,
          sizeOf(world) === before ? '' : `pool ${sizeOf(world)}, was ${before}`,
          world.env.pools.terminatedTwice ? `${world.env.pools.terminatedTwice} terminated twice` : '',
          JSON.stringify(world.env.pools.terminated.filter((id) => world.oldInstances.includes(id)).sort()) ===
          JSON.stringify([...world.oldInstances].sort())
            ? ''
            : 'not every old node replaced exactly once',
          world.env.kube.pdbViolations ? `${world.env.kube.pdbViolations} PDB violations` : '',
        ].filter(Boolean);
        if (problems.length) failures.push(`step ${lost}: ${problems.join('; ')}`);
      }

      expect(failures).toEqual([]);
    });
  }
});

describe('poolsToRoll', () => {
  it('rolls a pool whose groups still carry an unfinished roll’s marks, although no node is outdated', async () => {
    // Arrange: a roll of an earlier run scaled the pool out and died; this run has no record of it
    const world = await setupRoll({ size: 2 });
    await world.env.pools.markPreRollSize(clusterRef(world.cluster), 'workers');
    await world.env.pools.scale(clusterRef(world.cluster), 'workers', 4);
    const pool = world.env.pools.pools.get('workers')!;
    for (const instance of pool.instances) instance.version = pool.templateVersion;

    // Act
    const marked = await poolsToRoll({ pools: world.env.pools }, world.cluster, ['workers'], { pools: {} });
    await world.env.pools.restorePreRollSize(clusterRef(world.cluster), 'workers');
    const unmarked = await poolsToRoll({ pools: world.env.pools }, world.cluster, ['workers'], { pools: {} });

    // Assert
    expect(marked).toEqual(['workers']);
    expect(unmarked).toEqual([]);
  });
});
