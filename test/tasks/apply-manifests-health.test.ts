// The health check as PostApplyDeletions does it for a cluster without Karpenter pools (`healthFollows`): after the
// deletions, in the same call and the same state's Wait loop, each phase recorded once in the run.
import { applyManifests } from '../../lambdas/tasks/apply-manifests';
import type { KubeObject } from '../../lambdas/ports/kube-cluster';
import { fakeEnv, seedRunWithResources, testCluster } from '../support/fakes';

const TARGET = 'c0ffee#abc';
const HOLDER = 'exec-1';

const web: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'team' },
  spec: { replicas: 2 },
};

/** The live Deployment as its controller reports it: `available` of 2 replicas ready. */
const live = (available: number): KubeObject => ({
  ...web,
  metadata: { ...web.metadata, generation: 1 },
  status: { observedGeneration: 1, replicas: 2, updatedReplicas: 2, availableReplicas: available },
});

async function setup() {
  const cluster = testCluster();
  const env = fakeEnv({ clusters: [cluster] });
  await seedRunWithResources(
    env,
    cluster,
    { targetVersion: TARGET, holder: HOLDER },
    {
      manifests: [{ source: 'main', component: 'web', file: 'web/main.yaml', objects: [web] }],
      deletions: { preApply: [], postApply: [{ kind: 'ConfigMap', namespace: 'team', name: 'old' }] },
    },
  );
  await env.kube.apply([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'old', namespace: 'team' } }], {
    fieldManager: 'test',
  });
  const ref = { clusterId: cluster.id, targetVersion: TARGET, holder: HOLDER };
  const phases = async () => Object.keys((await env.progress.getRun(cluster.id, TARGET))!.manifestPhases).sort();
  return { env, ref, phases };
}

describe('PostApplyDeletions with the health check after it (no Karpenter pools)', () => {
  it('deletes, then finds the workloads healthy in the same call; both phases recorded', async () => {
    const { env, ref, phases } = await setup();
    env.kube.objects.set('Deployment/team/web', live(2));

    const step = await applyManifests(ref, 'post-deletions', env.ports, undefined, true);

    expect(step).toMatchObject({
      status: 'DONE',
      message: 'Deleted 1 object(s): ConfigMap team/old; 0 stack deletion(s) done; 1 workload(s) healthy',
    });
    expect(env.kube.objects.has('ConfigMap/team/old')).toBe(false);
    expect(await phases()).toEqual(['health', 'post-deletions', 'post-deletions:kubernetes']);
  });

  it('waits through its own Wait loop: the next call skips the deletions and looks at the workloads again', async () => {
    const { env, ref, phases } = await setup();
    env.kube.objects.set('Deployment/team/web', live(1));

    const first = await applyManifests(ref, 'post-deletions', env.ports, { outOfTime: () => true }, true);
    expect(first.status).toBe('IN_PROGRESS');
    expect(first.message).toMatch(
      /^Deleted 1 object\(s\): ConfigMap team\/old; 0 stack deletion\(s\) done; Waiting for 1 of 1 workload\(s\) to become healthy .*Deployment team\/web/,
    );
    expect(await phases()).toEqual(['health:since', 'post-deletions', 'post-deletions:kubernetes']);

    env.kube.objects.set('Deployment/team/web', live(2));
    const deletes = env.kube.calls.filter((c) => c.startsWith('delete')).length;
    const second = await applyManifests(ref, 'post-deletions', env.ports, undefined, true);

    expect(second).toMatchObject({ status: 'DONE', message: '1 workload(s) healthy' });
    expect(env.kube.calls.filter((c) => c.startsWith('delete'))).toHaveLength(deletes);
    expect(await phases()).toEqual(['health', 'health:since', 'post-deletions', 'post-deletions:kubernetes']);
  });

  it('leaves the health check to CheckWorkloadHealth when the cluster has Karpenter pools', async () => {
    const { env, ref, phases } = await setup();
    env.kube.objects.set('Deployment/team/web', live(1));

    const step = await applyManifests(ref, 'post-deletions', env.ports, undefined, false);

    expect(step).toMatchObject({
      status: 'DONE',
      message: 'Deleted 1 object(s): ConfigMap team/old; 0 stack deletion(s) done',
    });
    expect(await phases()).toEqual(['post-deletions', 'post-deletions:kubernetes']);
  });
});
