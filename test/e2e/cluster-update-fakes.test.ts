// The whole cluster-update state machine (the deployed ASL, run in process by the local executor) over
// the stateful in-memory fakes: a tiny config repository, CloudFormation that completes after two polls,
// an Auto Scaling backend whose workers are outdated, and a Kubernetes API with a PDB-protected workload.
import { ClusterUpdateOutput } from '../../lambdas/contracts/cluster-update';
import { nodePoolStackName } from '../../lambdas/core/cloudformation/stack-names';
import { harness, WORKER_STACK, type Harness } from './support/fakes-harness';

const registryStatus = (h: Harness) => h.env.registry.clusters.find((c) => c.id === h.cluster.id)!.status;

describe('cluster-update end to end over in-memory fakes', () => {
  it('creates the cluster: stacks deployed, outdated workers rolled without PDB violations, manifests applied, status rotated', async () => {
    // Arrange: the workers run an older launch template version than the one the stacks will define
    const h = harness();
    h.env.pools.bumpTemplate('workers');
    const outdated = h.env.pools.pools.get('workers')!.instances.map((i) => i.id);

    // Act
    const result = await h.run();

    // Assert
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('SUCCEEDED');
    const masterStack = nodePoolStackName(h.cluster, 'master');
    const workerStack = nodePoolStackName(h.cluster, 'workers');
    expect(h.env.stacks.deploys).toEqual(['kube-1', masterStack, workerStack]);
    expect([...h.env.stacks.stacks.values()].map((s) => s.status)).toEqual([
      'CREATE_COMPLETE',
      'CREATE_COMPLETE',
      'CREATE_COMPLETE',
    ]);
    expect([...h.env.kube.objects.keys()].sort()).toEqual(['ConfigMap/base-test/settings', 'Namespace//base-test']);
    expect(h.env.pools.terminated.sort()).toEqual([...outdated].sort());
    expect(h.env.pools.terminatedTwice).toBe(0);
    expect(h.env.kube.pdbViolations).toBe(0);
    expect(h.env.pools.pools.get('workers')!.instances.filter((i) => i.state === 'InService')).toHaveLength(3);
    const version = ClusterUpdateOutput.parse(result.output).final!.version;
    expect(version).toMatch(/^c0ffee#/);
    expect(registryStatus(h)).toEqual({ currentVersion: version, lastVersion: '', nextVersion: '', problems: [] });
    expect(await h.env.progress.getLease(h.cluster.id)).toBeUndefined();
    const run = await h.env.progress.getRun(h.cluster.id, version);
    expect(run?.pools.workers).toEqual(expect.objectContaining({ status: 'done', replaced: 3, total: 3 }));
    expect(result.stats.executions).toBe(2); // the parent and one rollout child: the master pool had nothing to roll
    expect(result.stats.maxHistoryEvents).toBeLessThan(20_000);
  });

  it('a second run with nothing changed is a no-op within 10 state transitions', async () => {
    // Arrange
    const h = harness();
    await h.run();
    const deploys = h.env.stacks.deploys.length;
    const calls = h.env.kube.calls.length + h.env.pools.calls.length;

    // Act
    const again = await h.run('exec-2');

    // Assert
    expect(again.status).toBe('SUCCEEDED');
    expect(ClusterUpdateOutput.parse(again.output).run!.decision).toBe('NOOP');
    expect(again.stats.stateTransitions).toBeLessThanOrEqual(10);
    expect(h.env.stacks.deploys).toHaveLength(deploys);
    expect(h.env.kube.calls.length + h.env.pools.calls.length).toBe(calls);
  });

  it('an update without node changes stays within 60 state transitions and keeps the previous version as last', async () => {
    // Arrange: a new config version that only changes a manifest
    const h = harness();
    const first = await h.run();
    const firstVersion = ClusterUpdateOutput.parse(first.output).final!.version;
    h.env.source.version = 'c0ffee2';
    h.env.source.files['cluster/manifests/02-config/configmap.yaml'] += '  extra: "1"\n';

    // Act
    const result = await h.run('exec-2');

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    expect(result.stats.stateTransitions).toBeLessThanOrEqual(60);
    expect(h.env.stacks.deploys).toHaveLength(3); // every stack template is unchanged: NO_CHANGES, nothing deployed
    expect(h.env.pools.terminated).toEqual([]);
    expect(registryStatus(h)).toEqual(
      expect.objectContaining({ lastVersion: firstVersion, currentVersion: expect.stringMatching(/^c0ffee2#/) }),
    );
    expect(
      (h.env.kube.objects.get('ConfigMap/base-test/settings') as unknown as { data: Record<string, string> }).data,
    ).toEqual({ cluster: 'kube-1', extra: '1' });
  });

  it('a stack that fails ends FAILED with the problem recorded, next_version kept and the lease released', async () => {
    // Arrange: a new version whose worker stack update rolls back
    const h = harness();
    const first = await h.run();
    const firstVersion = ClusterUpdateOutput.parse(first.output).final!.version;
    h.env.source.version = 'c0ffee3';
    h.env.source.files['cluster/node-pools/worker-default/stack.yaml'] = WORKER_STACK.replace('ami-1', 'ami-2');
    const workerStack = nodePoolStackName(h.cluster, 'workers');
    h.env.stacks.failNext(
      workerStack,
      'UPDATE_ROLLBACK_COMPLETE',
      'Resource handler returned message: "AMI ami-2 not found"',
    );

    // Act
    const result = await h.run('exec-3');

    // Assert
    expect(result.status).toBe('FAILED');
    expect(result.error?.Cause ?? '').toContain(workerStack);
    const status = registryStatus(h);
    expect(status.currentVersion).toBe(firstVersion);
    expect(status.nextVersion).toMatch(/^c0ffee3#/);
    expect(status.problems).toHaveLength(1);
    expect(status.problems[0]!.title).toContain(workerStack);
    expect(status.problems[0]!.title).toContain('ami-2 not found');
    expect(await h.env.progress.getLease(h.cluster.id)).toBeUndefined();
    expect(h.env.pools.terminated).toEqual([]); // no node of the failed pool was touched
    const run = await h.env.progress.getRun(h.cluster.id, status.nextVersion);
    expect(run?.phase).toMatch(/^Failed: /);
    expect(run?.completedAt).toBeUndefined();
  });
});
