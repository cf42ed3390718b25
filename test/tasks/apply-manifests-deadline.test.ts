// ApplyManifests near its Lambda timeout: it stops between chunks of objects, records its cursor in the run, returns
// CONTINUE, and the next call (a new process: only the progress store carries over) goes on after the last recorded
// object. The deadline is injected and counts work (objects the fake API server saw), never wall time.
import type { ResourcesArtifact } from '../../lambdas/contracts/artifacts';
import type { Deletion } from '../../lambdas/core/deletions/deletion';
import type { RenderedManifestFile } from '../../lambdas/core/render/render-manifests';
import type { KubeObject } from '../../lambdas/ports/kube-cluster';
import { APPLY_CHUNK, applyManifests } from '../../lambdas/tasks/apply-manifests';
import type { TaskContext } from '../../lambdas/tasks/define-task';
import { fakeEnv, seedRunWithResources, testCluster, type FakeEnv } from '../support/fakes';

const TARGET = 'c0ffee#abc';
const configMap = (i: number, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: `cm-${i}`, namespace: 'team', labels },
});
const file = (component: string, objects: KubeObject[]): RenderedManifestFile => ({
  source: 'main',
  component,
  file: `${component}/main.yaml`,
  objects,
});

async function setup(
  extra: Partial<ResourcesArtifact>,
): Promise<{ env: FakeEnv; ref: Parameters<typeof applyManifests>[0] }> {
  const cluster = testCluster();
  const env = fakeEnv({ clusters: [cluster] });
  await seedRunWithResources(env, cluster, { targetVersion: TARGET, holder: 'exec-1' }, extra);
  return { env, ref: { clusterId: cluster.id, targetVersion: TARGET, holder: 'exec-1' } };
}

/** Out of time once the API server saw `budget` more applies/deletes than when the call started. */
function deadlineAfter(env: FakeEnv, budget: number): TaskContext {
  const work = () => env.kube.calls.filter((c) => c.startsWith('apply ') || c.startsWith('delete ')).length;
  const start = work();
  return { outOfTime: () => work() - start >= budget };
}

/** How often each object was applied (or deleted): `verb Kind/ns/name` → count. */
function tally(calls: readonly string[], verb: 'apply' | 'delete'): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of calls) if (c.startsWith(`${verb} `)) counts.set(c, (counts.get(c) ?? 0) + 1);
  return counts;
}

describe('applyManifests across calls (Lambda deadline)', () => {
  it('3,000 manifests: several calls, each object applied exactly once, in order, then DONE', async () => {
    // Arrange: a Namespace and 3,000 ConfigMaps over three files; each call may apply about 400 objects
    const objects = Array.from({ length: 3000 }, (_, i) => configMap(i));
    const { env, ref } = await setup({
      manifests: [
        file('01-ns', [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } }]),
        file('02-a', objects.slice(0, 1000)),
        file('03-b', objects.slice(1000)),
      ],
    });

    // Act
    const steps = [];
    for (let call = 0; call < 50; call++) {
      const step = await applyManifests(ref, 'apply', env.ports, deadlineAfter(env, 400));
      steps.push(step);
      if (step.status !== 'CONTINUE') break;
    }

    // Assert
    expect(steps.length).toBeGreaterThan(5);
    expect(steps.slice(0, -1).every((s) => s.status === 'CONTINUE')).toBe(true);
    expect(steps.at(-1)).toEqual({
      status: 'DONE',
      waitSeconds: 1,
      message: 'Applied 3001 object(s): 3001 created, 0 configured, 0 unchanged; pruned 0',
    });
    const applied = tally(env.kube.calls, 'apply');
    expect(applied.size).toBe(3001);
    expect([...applied.values()].every((n) => n === 1)).toBe(true);
    expect(env.kube.calls.filter((c) => c.startsWith('apply ')).slice(0, 3)).toEqual([
      'apply Namespace//team',
      'apply ConfigMap/team/cm-0',
      'apply ConfigMap/team/cm-1',
    ]);
    expect(await env.progress.getInventory(ref.clusterId)).toHaveLength(3001);
    expect(steps[0].message).toBe(
      `Applied ${1 + 16 * APPLY_CHUNK} of 3001 object(s); continuing before the Lambda timeout`,
    );
  });

  it('a process killed in the middle of a call re-applies nothing it recorded: only the chunk in flight', async () => {
    // Arrange: 300 objects; the API server dies (the process is killed) on the 130th apply
    const objects = Array.from({ length: 300 }, (_, i) => configMap(i));
    const { env, ref } = await setup({ manifests: [file('01-a', objects)] });
    const apply = env.kube.apply.bind(env.kube);
    let seen = 0;
    env.kube.apply = async (batch, options) => {
      if (seen < 130 && seen + batch.length >= 130) {
        seen = Number.POSITIVE_INFINITY;
        throw new Error('SIGKILL');
      }
      seen += batch.length;
      return apply(batch, options);
    };

    // Act: the first call dies; the next one runs to the end
    await expect(applyManifests(ref, 'apply', env.ports)).rejects.toThrow('SIGKILL');
    const after = await applyManifests(ref, 'apply', env.ports);

    // Assert: the chunk that was in flight (objects 125–149) was never applied before the kill, so exactly once
    expect(after.status).toBe('DONE');
    const applied = tally(env.kube.calls, 'apply');
    expect(applied.size).toBe(300);
    expect([...applied.values()].every((n) => n === 1)).toBe(true);
  });

  it('pruning hundreds of objects continues across calls too, each deleted once', async () => {
    // Arrange: the inventory lists 500 ConfigMaps no longer rendered
    const { env, ref } = await setup({ manifests: [file('01-a', [configMap(0)])] });
    const old = Array.from({ length: 500 }, (_, i) => configMap(1000 + i));
    await env.kube.apply(old, { fieldManager: 'clm' });
    await env.progress.putInventory(
      ref.clusterId,
      old.map((o) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'team', name: o.metadata.name })),
    );
    env.kube.calls.length = 0;

    // Act
    const steps = [];
    for (let call = 0; call < 50; call++) {
      const step = await applyManifests(ref, 'apply', env.ports, deadlineAfter(env, 120));
      steps.push(step);
      if (step.status !== 'CONTINUE') break;
    }

    // Assert
    expect(steps.length).toBe(5);
    expect(steps.at(-1)?.message).toMatch(/^Applied 1 object\(s\): 1 created.*; pruned 500 \(/);
    const deleted = tally(env.kube.calls, 'delete');
    expect(deleted.size).toBe(500);
    expect([...deleted.values()].every((n) => n === 1)).toBe(true);
    expect([...env.kube.objects.keys()]).toEqual(['ConfigMap/team/cm-0']);
  });
});

describe('deletion phases across calls (Lambda deadline)', () => {
  it('hundreds of deletions by name and by selector: several calls, each object deleted once, then DONE', async () => {
    // Arrange: 300 ConfigMaps deleted by name, 400 more by a label selector
    const named = Array.from({ length: 300 }, (_, i) => configMap(i));
    const labelled = Array.from({ length: 400 }, (_, i) => configMap(1000 + i, { legacy: 'yes' }));
    const deletions: Deletion[] = [
      ...named.map((o): Deletion => ({ kind: 'ConfigMap', namespace: 'team', name: o.metadata.name })),
      { kind: 'ConfigMap', namespace: 'team', labels: { legacy: 'yes' } },
    ];
    const { env, ref } = await setup({ deletions: { preApply: deletions, postApply: [] } });
    await env.kube.apply([...named, ...labelled, configMap(5000)], { fieldManager: 'clm' });
    env.kube.calls.length = 0;

    // Act
    const steps = [];
    for (let call = 0; call < 50; call++) {
      const step = await applyManifests(ref, 'pre-deletions', env.ports, deadlineAfter(env, 150));
      steps.push(step);
      if (step.status !== 'CONTINUE') break;
    }

    // Assert
    expect(steps.map((s) => s.status)).toEqual(['CONTINUE', 'CONTINUE', 'CONTINUE', 'CONTINUE', 'DONE']);
    expect(steps[0].message).toBe('Deleted 150 object(s) so far, 150 of 301 deletion(s) done; continuing');
    expect(steps.at(-1)?.message).toBe(
      'Deleted 700 object(s): ConfigMap team/cm-0, ConfigMap team/cm-1, ConfigMap team/cm-2, ConfigMap team/cm-3, ConfigMap team/cm-4, …; 0 stack deletion(s) done',
    );
    const deleted = tally(env.kube.calls, 'delete');
    expect(deleted.size).toBe(700);
    expect([...deleted.values()].every((n) => n === 1)).toBe(true);
    expect([...env.kube.objects.keys()]).toEqual(['ConfigMap/team/cm-5000']);
    const run = await env.progress.getRun(ref.clusterId, TARGET);
    expect(run?.manifestPhases['pre-deletions']).toBeDefined();
  });
});
