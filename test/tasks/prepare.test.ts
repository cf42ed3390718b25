import { prepare } from '../../lambdas/tasks/prepare';
import { targetVersion } from '../../lambdas/core/version/cluster-version';
import { runArtifactKey } from '../../lambdas/tasks/step/artifacts';
import type { Cluster } from '../../lambdas/core/model/cluster';
import type { ClusterUpdateInput } from '../../lambdas/contracts/cluster-update';
import { fakeEnv, testCluster } from '../support/fakes';

const provision: ClusterUpdateInput = {
  clusterId: testCluster().id,
  action: 'provision',
  options: { applyOnly: false },
  trigger: 'cli',
};
const decommission: ClusterUpdateInput = { ...provision, action: 'decommission' };

function upToDate(cluster: Cluster): Cluster {
  return { ...cluster, status: { ...cluster.status, currentVersion: targetVersion('c0ffee', cluster) } };
}

describe('prepare', () => {
  it('is NOOP when the current version equals the target, and takes no lease', async () => {
    const env = fakeEnv({ clusters: [upToDate(testCluster())] });

    const out = await prepare(provision, 'exec-1', env.ports);

    expect(out.decision).toBe('NOOP');
    expect(out.message).toMatch(/is up to date/);
    expect(await env.progress.getLease(provision.clusterId)).toBeUndefined();
  });

  it('is UPDATE when the config version moved: creates the run, pins the cluster, writes next_version', async () => {
    const cluster = upToDate(testCluster());
    const env = fakeEnv({ clusters: [cluster] });
    env.source.version = 'beef01';

    const out = await prepare(provision, 'exec-1', env.ports);

    const target = targetVersion('beef01', cluster);
    expect(out).toMatchObject({
      decision: 'UPDATE',
      targetVersion: target,
      previousVersion: cluster.status.currentVersion,
      holder: 'exec-1',
    });
    const run = await env.progress.getRun(cluster.id, target);
    expect(run).toMatchObject({
      action: 'provision',
      holder: 'exec-1',
      previousVersion: cluster.status.currentVersion,
      phase: 'Prepare',
    });
    expect(run?.completedAt).toBeUndefined();
    expect(env.artifacts.objects.has(runArtifactKey(cluster.id, target, 'cluster'))).toBe(true);
    expect((await env.progress.getLease(cluster.id))?.holder).toBe('exec-1');
    expect((await env.registry.listClusters())[0]!.status.nextVersion).toBe(target);
  });

  it.each([true, false])(
    'keeps the lifecycle status the progress store holds when it writes next_version (registry keeps status: %s)',
    async (persistsStatus) => {
      const cluster = upToDate(testCluster());
      const env = fakeEnv({ clusters: [cluster], persistsStatus });
      await env.progress.putStatus(cluster.id, { ...cluster.status, lifecycleStatus: 'ready', updatedAt: 0 });
      env.source.version = 'beef01';

      await prepare(provision, 'exec-1', env.ports);

      expect(await env.progress.getStatus(cluster.id)).toMatchObject({
        nextVersion: targetVersion('beef01', cluster),
        lifecycleStatus: 'ready',
      });
    },
  );

  it('carries the boot times the previous run learned into the new run', async () => {
    const cluster = upToDate(testCluster());
    const env = fakeEnv({ clusters: [cluster] });
    const previous = await env.progress.putRun({
      clusterId: cluster.id,
      targetVersion: cluster.status.currentVersion,
      action: 'provision',
      revision: 0,
      phase: 'Finalize',
      holder: 'old',
      startedAt: 0,
      updatedAt: 0,
      completedAt: 1,
      previousVersion: '',
      artifacts: {},
      stackOutputs: {},
      stacks: {},
      manifestPhases: {},
      counters: {},
      learnedBootMs: { masters: 80_000 },
      pools: { workers: { status: 'done', total: 2, replaced: 2, nodes: {}, steps: 5, bootEstimateMs: 95_000 } },
    });
    expect(previous.revision).toBe(1);
    env.source.version = 'beef01';

    const out = await prepare(provision, 'exec-1', env.ports);

    expect((await env.progress.getRun(cluster.id, out.targetVersion))?.learnedBootMs).toEqual({
      masters: 80_000,
      workers: 95_000,
    });
  });

  it('keeps status in the progress store when the registry cannot persist it', async () => {
    const env = fakeEnv({ persistsStatus: false });

    const out = await prepare(provision, 'exec-1', env.ports);

    expect(out.decision).toBe('UPDATE');
    expect((await env.registry.listClusters())[0]!.status.nextVersion).toBe('');
    expect((await env.progress.getStatus(provision.clusterId))?.nextVersion).toBe(out.targetVersion);
  });

  it('with a status-less registry, the stored status makes the next prepare a NOOP once finalized', async () => {
    const env = fakeEnv({ persistsStatus: false });
    const target = targetVersion('c0ffee', testCluster());
    await env.progress.putStatus(provision.clusterId, {
      currentVersion: target,
      lastVersion: '',
      nextVersion: '',
      problems: [],
      updatedAt: 0,
    });

    const out = await prepare(provision, 'exec-1', env.ports);

    expect(out.decision).toBe('NOOP');
  });

  it('SKIPs clusters with cluster_update_block, naming the reason', async () => {
    const env = fakeEnv({
      clusters: [testCluster({ configItems: { cluster_update_block: 'migration in progress' } })],
    });

    const out = await prepare(provision, 'exec-1', env.ports);

    expect(out.decision).toBe('SKIP');
    expect(out.message).toContain('cluster_update_block (migration in progress)');
    expect(await env.progress.getLease(provision.clusterId)).toBeUndefined();
  });

  it('SKIPs paused clusters', async () => {
    const env = fakeEnv();
    await env.progress.putControls(provision.clusterId, { paused: true, reason: 'incident 42' });

    const out = await prepare(provision, 'exec-1', env.ports);

    expect(out.decision).toBe('SKIP');
    expect(out.message).toMatch(/paused by an operator: incident 42/);
  });

  it('SKIPs when another execution holds the lease', async () => {
    const env = fakeEnv();
    await env.progress.acquireLease(provision.clusterId, 'exec-other', 60_000, env.clock.now());

    const out = await prepare(provision, 'exec-1', env.ports);

    expect(out.decision).toBe('SKIP');
    expect(out.message).toContain('exec-other');
    expect(await env.progress.getRun(provision.clusterId, out.targetVersion)).toBeUndefined();
  });

  it('resumes an unfinished run instead of creating a new one, taking it over for the new holder', async () => {
    const env = fakeEnv();
    const first = await prepare(provision, 'exec-1', env.ports);
    const run = await env.progress.getRun(provision.clusterId, first.targetVersion);
    await env.progress.putRun({
      ...run!,
      phase: 'RollNodePool workers',
      stacks: { 'kube-1': { status: 'done', startedAt: 1 } },
    });
    await env.progress.releaseLease(provision.clusterId, 'exec-1');

    const second = await prepare(provision, 'exec-2', env.ports);

    expect(second.decision).toBe('UPDATE');
    expect(second.message).toMatch(/resuming an unfinished run/);
    const resumed = await env.progress.getRun(provision.clusterId, first.targetVersion);
    expect(resumed).toMatchObject({
      holder: 'exec-2',
      phase: 'RollNodePool workers',
      stacks: { 'kube-1': { status: 'done' } },
    });
  });

  it('resumes an unfinished run even when the target equals the current version', async () => {
    const cluster = upToDate(testCluster());
    const env = fakeEnv({ clusters: [cluster] });
    const target = targetVersion('c0ffee', cluster);
    await env.progress.putRun({
      clusterId: cluster.id,
      targetVersion: target,
      action: 'provision',
      revision: 0,
      phase: 'DeployStacks main',
      holder: 'exec-0',
      startedAt: 0,
      updatedAt: 0,
      previousVersion: '',
      artifacts: {},
      stackOutputs: {},
      stacks: {},
      pools: {},
      manifestPhases: {},
      counters: {},
    });

    const out = await prepare(provision, 'exec-1', env.ports);

    expect(out.decision).toBe('UPDATE');
  });

  it('is DECOMMISSION for a cluster whose lifecycle is decommission-requested, without touching next_version', async () => {
    const env = fakeEnv({ clusters: [testCluster({ lifecycleStatus: 'decommission-requested' })] });

    const out = await prepare(provision, 'exec-1', env.ports);

    expect(out.decision).toBe('DECOMMISSION');
    expect(out.targetVersion).toMatch(/^decommission#/);
    expect((await env.progress.getRun(provision.clusterId, out.targetVersion))?.action).toBe('decommission');
    expect(env.registry.statusWrites).toEqual([]);
  });

  it('a finished decommission asked again is a NOOP', async () => {
    const env = fakeEnv();
    const first = await prepare(decommission, 'exec-1', env.ports);
    const run = await env.progress.getRun(provision.clusterId, first.targetVersion);
    await env.progress.putRun({ ...run!, completedAt: env.clock.now() });
    await env.progress.releaseLease(provision.clusterId, 'exec-1');

    const again = await prepare(decommission, 'exec-2', env.ports);

    expect(first.decision).toBe('DECOMMISSION');
    expect(again.decision).toBe('NOOP');
    expect(again.message).toMatch(/already decommissioned/);
  });

  it('SKIPs a decommissioned cluster asked to provision', async () => {
    const env = fakeEnv({ clusters: [testCluster({ lifecycleStatus: 'decommissioned' })] });

    expect((await prepare(provision, 'exec-1', env.ports)).decision).toBe('SKIP');
  });
});
