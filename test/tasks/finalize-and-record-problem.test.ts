import { finalize } from '../../lambdas/tasks/finalize';
import { causeMessage, recordProblem } from '../../lambdas/tasks/record-problem';
import { fakeEnv, seedRun, testCluster } from '../support/fakes';

const OLD = 'aaaa#1111';
const TARGET = 'bbbb#2222';

function clusterAt(current: string) {
  return testCluster({
    status: {
      currentVersion: current,
      lastVersion: 'zzzz#0000',
      nextVersion: TARGET,
      problems: [{ type: 'about:blank', title: 'old problem' }],
    },
  });
}

describe('finalize', () => {
  it('rotates versions (last ← current, current ← target, next ← ""), clears problems, sets ready, closes the run, releases the lease', async () => {
    const cluster = clusterAt(OLD);
    const env = fakeEnv({ clusters: [cluster] });
    await seedRun(env, cluster, { targetVersion: TARGET, holder: 'exec-1' });
    env.clock.advance(12 * 60_000);

    const out = await finalize({ clusterId: cluster.id, targetVersion: TARGET, holder: 'exec-1' }, env.ports);

    const [stored] = await env.registry.listClusters();
    expect(stored!.status).toEqual({ currentVersion: TARGET, lastVersion: OLD, nextVersion: '', problems: [] });
    expect(stored!.lifecycleStatus).toBe('ready');
    expect(await env.progress.getStatus(cluster.id)).toMatchObject({
      currentVersion: TARGET,
      lifecycleStatus: 'ready',
    });
    expect((await env.progress.getRun(cluster.id, TARGET))?.completedAt).toBe(env.clock.now());
    expect(await env.progress.getLease(cluster.id)).toBeUndefined();
    expect(out).toEqual({
      status: 'SUCCEEDED',
      version: TARGET,
      message: `Cluster ${cluster.id} is at ${TARGET} (12 min)`,
    });
  });

  it('uses the status stored in the progress store when the registry cannot persist status', async () => {
    const cluster = testCluster();
    const env = fakeEnv({ clusters: [cluster], persistsStatus: false });
    await env.progress.putStatus(cluster.id, {
      currentVersion: OLD,
      lastVersion: '',
      nextVersion: TARGET,
      problems: [],
      updatedAt: 0,
    });
    await seedRun(env, cluster, { targetVersion: TARGET, holder: 'exec-1' });

    await finalize({ clusterId: cluster.id, targetVersion: TARGET, holder: 'exec-1' }, env.ports);

    expect(await env.progress.getStatus(cluster.id)).toMatchObject({
      currentVersion: TARGET,
      lastVersion: OLD,
      nextVersion: '',
    });
  });

  it('a decommission ends decommissioned with no current version', async () => {
    const cluster = clusterAt(OLD);
    const env = fakeEnv({ clusters: [cluster] });
    await seedRun(env, cluster, { targetVersion: `decommission#${TARGET}`, holder: 'exec-1', action: 'decommission' });

    const out = await finalize(
      { clusterId: cluster.id, targetVersion: `decommission#${TARGET}`, holder: 'exec-1' },
      env.ports,
    );

    const [stored] = await env.registry.listClusters();
    expect(stored!.lifecycleStatus).toBe('decommissioned');
    expect(stored!.status).toEqual({ currentVersion: '', lastVersion: OLD, nextVersion: '', problems: [] });
    expect(out.version).toBe('');
  });

  it('running twice keeps the first completion time', async () => {
    const cluster = clusterAt(OLD);
    const env = fakeEnv({ clusters: [cluster] });
    await seedRun(env, cluster, { targetVersion: TARGET, holder: 'exec-1' });
    const ref = { clusterId: cluster.id, targetVersion: TARGET, holder: 'exec-1' };
    await finalize(ref, env.ports);
    const completedAt = (await env.progress.getRun(cluster.id, TARGET))?.completedAt;
    env.clock.advance(60_000);

    await finalize(ref, env.ports);

    expect((await env.progress.getRun(cluster.id, TARGET))?.completedAt).toBe(completedAt);
  });
});

describe('recordProblem', () => {
  const lambdaCause = JSON.stringify({
    errorType: 'StackFailedError',
    errorMessage: 'Stack kube-1 is UPDATE_ROLLBACK_COMPLETE: Resource creation cancelled',
    trace: ['at x'],
  });

  it("appends the problem to the registry's own list with the Lambda cause unwrapped, keeps next_version, marks the run failed and releases the lease", async () => {
    const cluster = clusterAt(OLD);
    const env = fakeEnv({ clusters: [cluster] });
    await seedRun(env, cluster, { targetVersion: TARGET, holder: 'exec-1' });

    const out = await recordProblem(
      {
        clusterId: cluster.id,
        targetVersion: TARGET,
        holder: 'exec-1',
        executionId: 'arn:exec-1',
        error: { Error: 'StackFailedError', Cause: lambdaCause },
      },
      env.ports,
    );

    expect(out.problem).toBe('StackFailedError: Stack kube-1 is UPDATE_ROLLBACK_COMPLETE: Resource creation cancelled');
    const [stored] = await env.registry.listClusters();
    expect(stored!.status.nextVersion).toBe(TARGET);
    expect(stored!.status.currentVersion).toBe(OLD);
    // The registry holds status (persistsStatus): its earlier problem stays, the new one follows.
    expect(stored!.status.problems.map((p) => p.title)).toEqual(['old problem', out.problem]);
    expect(stored!.status.problems[1]!.instance).toBe('arn:exec-1');
    expect((await env.progress.getStatus(cluster.id))?.problems.map((p) => p.title)).toEqual([
      'old problem',
      out.problem,
    ]);
    expect((await env.progress.getRun(cluster.id, TARGET))?.phase).toBe(`Failed: ${out.problem}`);
    expect(await env.progress.getLease(cluster.id)).toBeUndefined();
  });

  it.each([true, false])(
    'keeps the lifecycle status the progress store holds (registry keeps status: %s)',
    async (persistsStatus) => {
      const cluster = clusterAt(OLD);
      const env = fakeEnv({ clusters: [cluster], persistsStatus });
      await env.progress.putStatus(cluster.id, { ...cluster.status, lifecycleStatus: 'ready', updatedAt: 0 });

      await recordProblem(
        { clusterId: cluster.id, executionId: 'e1', error: { Error: 'TemplateRenderError', Cause: 'bad template' } },
        env.ports,
      );

      expect(await env.progress.getStatus(cluster.id)).toMatchObject({
        lifecycleStatus: 'ready',
        problems: expect.arrayContaining([expect.objectContaining({ title: 'TemplateRenderError: bad template' })]),
      });
    },
  );

  it('appends to earlier problems recorded in the progress store', async () => {
    const cluster = testCluster();
    const env = fakeEnv({ clusters: [cluster] });
    await recordProblem(
      { clusterId: cluster.id, executionId: 'e1', error: { Error: 'KubeApiError', Cause: 'first' } },
      env.ports,
    );

    await recordProblem(
      { clusterId: cluster.id, executionId: 'e2', error: { Error: 'KubeApiError', Cause: 'second' } },
      env.ports,
    );

    expect((await env.progress.getStatus(cluster.id))?.problems.map((p) => p.title)).toEqual([
      'KubeApiError: first',
      'KubeApiError: second',
    ]);
  });

  it('does not write the registry when it cannot persist status', async () => {
    const cluster = testCluster();
    const env = fakeEnv({ clusters: [cluster], persistsStatus: false });

    await recordProblem({ clusterId: cluster.id, executionId: 'e1', error: { Error: 'States.Timeout' } }, env.ports);

    expect(env.registry.statusWrites).toEqual([]);
    expect((await env.progress.getStatus(cluster.id))?.problems.map((p) => p.title)).toEqual(['States.Timeout']);
  });

  it('unwraps causes: Lambda JSON, plain text, missing', () => {
    expect(causeMessage({ Error: 'X', Cause: lambdaCause })).toBe(
      'Stack kube-1 is UPDATE_ROLLBACK_COMPLETE: Resource creation cancelled',
    );
    expect(causeMessage({ Error: 'X', Cause: 'plain words' })).toBe('plain words');
    expect(causeMessage({ Error: 'X', Cause: '{"other":1}' })).toBe('{"other":1}');
    expect(causeMessage({ Error: 'States.Timeout' })).toBe('States.Timeout');
  });
});
