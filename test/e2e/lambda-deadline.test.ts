// The deployed cluster-update ASL over the in-memory fakes with the Lambda deadline injected: ApplyManifests with
// 3,000 manifests and hundreds of pre-apply deletions cannot finish in one call, returns CONTINUE, and the state
// machine calls it again at once until it is done. The deadline counts work (calls the fake API server saw), never
// wall time.
import { NO_DEADLINE } from '../../lambdas/runtime/task-deadline';
import type { TaskContext } from '../../lambdas/tasks/define-task';
import type { KubeObject } from '../../lambdas/ports/kube-cluster';
import { harness, type Harness } from './support/fakes-harness';

const MANIFESTS = 3000;
const DELETIONS = 300;

/** 3,000 ConfigMaps in one manifest file, after their Namespace. */
function manyConfigMaps(): string {
  const docs = ['apiVersion: v1\nkind: Namespace\nmetadata:\n  name: many\n'];
  for (let i = 0; i < MANIFESTS; i++)
    docs.push(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n  namespace: many\ndata:\n  i: "${i}"\n`);
  return docs.join('---\n');
}

/** 300 leftovers deleted by name before the apply, and everything labelled legacy=yes. */
function deletionsYaml(): string {
  const entries = Array.from(
    { length: DELETIONS },
    (_, i) => `  - kind: ConfigMap\n    namespace: old\n    name: old-${i}\n`,
  );
  return `pre_apply:\n${entries.join('')}  - kind: ConfigMap\n    namespace: old\n    labels:\n      legacy: "yes"\npost_apply: []\n`;
}

const old = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'old', labels },
});

/** Out of time once the API server saw `budget` more applies and deletes than when the call started. */
function workBudget(h: () => Harness, budget: number): (task: { name: string }) => TaskContext {
  const work = () => h().env.kube.calls.filter((c) => /^(apply|delete) /.test(c)).length;
  return (task) => {
    if (task.name !== 'ApplyManifests') return NO_DEADLINE;
    const start = work();
    return { outOfTime: () => work() - start >= budget };
  };
}

/** How often each call (`apply Kind/ns/name`, `delete …`) happened. */
function tally(calls: readonly string[], pattern: RegExp): number[] {
  const counts = new Map<string, number>();
  for (const c of calls) if (pattern.test(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts.values()];
}

describe('a task nearing its Lambda timeout continues on its next call', () => {
  it('3,000 manifests and 400 deletions over several ApplyManifests calls: each object once, the execution succeeds', async () => {
    // Arrange
    const h: Harness = harness({ taskContext: workBudget(() => h, 500) });
    h.env.source.files['cluster/manifests/03-many/configmaps.yaml'] = manyConfigMaps();
    h.env.source.files['cluster/manifests/deletions.yaml'] = deletionsYaml();
    await h.env.kube.apply(
      [
        ...Array.from({ length: DELETIONS }, (_, i) => old(`old-${i}`)),
        ...Array.from({ length: 100 }, (_, i) => old(`legacy-${i}`, { legacy: 'yes' })),
        old('keep'),
      ],
      { fieldManager: 'clm' },
    );
    h.env.kube.calls.length = 0;

    // Act
    const result = await h.run();

    // Assert
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('SUCCEEDED');
    const calls = result.run.entered;
    // 400 deletions within a budget of 500: one call; 3,003 applies (two Namespaces, the tiny config's ConfigMap and
    // the 3,000) in chunks of 25: 503 in the first call, 500 in each next one, so six calls
    expect(calls.filter((s) => s === 'PreApplyDeletions')).toHaveLength(1);
    expect(calls.filter((s) => s === 'ApplyManifests')).toHaveLength(6);
    // CONTINUE goes straight back to the task: no Wait state in between
    expect(calls.filter((s) => s === 'WaitForManifests')).toHaveLength(0);
    const applies = tally(h.env.kube.calls, /^apply ConfigMap\/many\//);
    expect(applies).toHaveLength(MANIFESTS);
    expect(applies.every((n) => n === 1)).toBe(true);
    const deletes = tally(h.env.kube.calls, /^delete ConfigMap\/old\//);
    expect(deletes).toHaveLength(DELETIONS + 100);
    expect(deletes.every((n) => n === 1)).toBe(true);
    expect([...h.env.kube.objects.keys()].filter((k) => k.startsWith('ConfigMap/old/'))).toEqual([
      'ConfigMap/old/keep',
    ]);
    expect(result.stats.maxHistoryEvents).toBeLessThan(20_000);
  });

  it('deletions that do not fit one call continue too', async () => {
    // Arrange: a budget of 120 calls: the 400 deletions take four calls
    const h: Harness = harness({ taskContext: workBudget(() => h, 120) });
    h.env.source.files['cluster/manifests/deletions.yaml'] = deletionsYaml();
    await h.env.kube.apply(
      [
        ...Array.from({ length: DELETIONS }, (_, i) => old(`old-${i}`)),
        ...Array.from({ length: 100 }, (_, i) => old(`legacy-${i}`, { legacy: 'yes' })),
      ],
      { fieldManager: 'clm' },
    );
    h.env.kube.calls.length = 0;

    // Act
    const result = await h.run();

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    expect(result.run.entered.filter((s) => s === 'PreApplyDeletions')).toHaveLength(4);
    expect(result.run.entered.filter((s) => s === 'WaitForPreApplyDeletions')).toHaveLength(0);
    const deletes = tally(h.env.kube.calls, /^delete ConfigMap\/old\//);
    expect(deletes).toHaveLength(DELETIONS + 100);
    expect(deletes.every((n) => n === 1)).toBe(true);
  });
});
