// DeleteStacks (decommission): termination protection is lifted just before each DeleteStack, the main stack's only
// in the last stage.
import { mainStackTags, nodePoolStackTags } from '../../lambdas/core/cloudformation/stack-names';
import type { RunRecord } from '../../lambdas/core/model/run';
import { deleteClusterStacks } from '../../lambdas/tasks/delete-stacks';
import { fakeEnv, seedRun, testCluster } from '../support/fakes';

const cluster = testCluster();
const MAIN = cluster.localId;
const POOL = 'nodepool-default-worker';
const INIT = { targetVersion: 'decommission#1', holder: 'exec-1', action: 'decommission' } as const;
const toRef = (run: RunRecord) => ({ clusterId: run.clusterId, targetVersion: run.targetVersion, holder: run.holder });

async function arrange() {
  const env = fakeEnv({ clusters: [cluster] });
  const ref = toRef(await seedRun(env, cluster, INIT));
  await env.stacks.deploy({ name: MAIN, templateBody: '{"main":1}', tags: mainStackTags(cluster) });
  await env.stacks.deploy({
    name: POOL,
    templateBody: '{"pool":1}',
    tags: nodePoolStackTags(cluster, { name: 'default-worker', profile: 'worker-default' }),
  });
  // The fake completes an operation after two describes.
  for (const name of [MAIN, MAIN, POOL, POOL]) await env.stacks.describe(name);
  env.stacks.calls.length = 0;
  return { env, ref };
}

describe('deleteClusterStacks', () => {
  it('stacks are created with termination protection', async () => {
    const { env } = await arrange();

    expect(env.stacks.stacks.get(MAIN)?.terminationProtection).toBe(true);
    expect(env.stacks.stacks.get(POOL)?.terminationProtection).toBe(true);
  });

  it('the other stacks first, then the main stack, each protection lifted just before its DeleteStack', async () => {
    // Arrange
    const { env, ref } = await arrange();

    // Act
    const others = await deleteClusterStacks(ref, 'others', env.ports);
    const callsAfterOthers = [...env.stacks.calls];
    const main = await deleteClusterStacks(ref, 'main', env.ports);

    // Assert
    expect(others.status).toBe('IN_PROGRESS');
    expect(callsAfterOthers).toEqual([`disableTerminationProtection ${POOL}`, `delete ${POOL}`]);
    expect(main.status).toBe('IN_PROGRESS');
    expect(env.stacks.calls.slice(2)).toEqual([`disableTerminationProtection ${MAIN}`, `delete ${MAIN}`]);
  });
});
