import { awaitDrainChange, type DrainWatch } from '../../../lambdas/tasks/roll/await-drain-change';
import type { PdbInfo, PodInfo } from '../../../lambdas/ports/kube-cluster';
import type { ClusterControls } from '../../../lambdas/ports/progress-store';
import { FakeClock } from '../../support/fakes';

const MIN = 60_000;

function pod(name: string, overrides: Partial<PodInfo> = {}): PodInfo {
  return {
    namespace: 'default',
    name,
    uid: `uid-${name}`,
    nodeName: 'old-1',
    phase: 'Running',
    ready: true,
    labels: { app: 'web' },
    annotations: {},
    owner: { kind: 'ReplicaSet', name: 'web-1' },
    createdAt: '2024-01-01T00:00:00Z',
    terminationGracePeriodSeconds: 30,
    deleting: false,
    ...overrides,
  };
}

function pdb(name: string, app: string, disruptionsAllowed: number): PdbInfo {
  return {
    namespace: 'default',
    name,
    selector: { matchLabels: { app } },
    minAvailable: 2,
    disruptionsAllowed,
    currentHealthy: 2,
    desiredHealthy: 2,
    expectedPods: 2,
  };
}

/**
 * A cluster whose drain-relevant state is a function of the virtual time since the wait began: what the watch
 * sees at each look. Counts the looks (listPdbs calls).
 */
function world(
  state: (elapsedMs: number) => { pods?: PodInfo[]; pdbs?: PdbInfo[]; controls?: ClusterControls; fail?: boolean },
) {
  const clock = new FakeClock();
  const start = clock.now();
  let looks = 0;
  const at = () => state(clock.now() - start);
  const kube = {
    listPods: async () => at().pods ?? [pod('web-0')],
    listPdbs: async () => {
      looks++;
      if (at().fail) throw new Error('API server unreachable');
      return at().pdbs ?? [pdb('web', 'web', 0), pdb('other', 'other', 0)];
    },
  };
  const progress = { getControls: async () => at().controls };
  const watch: DrainWatch = { clusterId: 'c1', nodeNames: ['old-1'], pollMs: 10_000, untilMs: start + 10 * MIN };
  return {
    clock,
    kube,
    progress,
    watch,
    looks: () => looks,
    run: () => awaitDrainChange({ clock, progress }, kube, watch),
  };
}

describe('awaitDrainChange: a drain PDBs refuse, waited out in process', () => {
  it('waits the whole time when nothing changes, looking once per poll interval', async () => {
    const w = world(() => ({}));
    const outcome = await w.run();
    expect(outcome).toEqual({ ended: 'timeout', waitedMs: 10 * MIN });
    // the first look is the baseline, then one per 10 s
    expect(w.looks()).toBe(1 + 60);
  });

  it('returns within one poll interval of the covering PDB allowing a disruption', async () => {
    const liftAt = 4 * MIN + 3_000;
    const w = world((t) => ({ pdbs: [pdb('web', 'web', t >= liftAt ? 1 : 0), pdb('other', 'other', 0)] }));
    const outcome = await w.run();
    expect(outcome.ended).toBe('changed');
    expect(outcome.waitedMs).toBeGreaterThanOrEqual(liftAt);
    expect(outcome.waitedMs - liftAt).toBeLessThanOrEqual(w.watch.pollMs);
  });

  it('is not woken by a PDB that covers none of the draining pods', async () => {
    const w = world((t) => ({ pdbs: [pdb('web', 'web', 0), pdb('other', 'other', t >= MIN ? 3 : 0)] }));
    expect((await w.run()).ended).toBe('timeout');
  });

  it('returns when a pod leaves the node or starts terminating, or an operator pauses or aborts', async () => {
    const cases: ((t: number) => ReturnType<Parameters<typeof world>[0]>)[] = [
      (t) => ({ pods: t >= 2 * MIN ? [] : [pod('web-0')] }),
      (t) => ({ pods: [pod('web-0', { deleting: t >= 2 * MIN })] }),
      (t) => ({ controls: t >= 2 * MIN ? { paused: true } : undefined }),
      (t) => ({ controls: t >= 2 * MIN ? { abortRequested: true } : {} }),
    ];
    for (const state of cases) {
      const outcome = await world(state).run();
      expect(outcome).toEqual({ ended: 'changed', waitedMs: 2 * MIN });
    }
  });

  it('ignores pods that are not drained (DaemonSet pods, finished pods) and approval records', async () => {
    const w = world((t) => ({
      pods: [
        pod('web-0'),
        pod('proxy', { owner: { kind: 'DaemonSet', name: 'proxy' }, deleting: t >= MIN }),
        ...(t >= MIN ? [pod('job', { phase: 'Succeeded' })] : []),
      ],
      controls: t >= MIN ? { by: 'someone', at: 1 } : {},
    }));
    expect((await w.run()).ended).toBe('timeout');
  });

  it('ends at once when a look fails (the step then falls back to a Wait state)', async () => {
    const w = world((t) => ({ fail: t >= 30_000 }));
    expect(await w.run()).toEqual({ ended: 'error', waitedMs: 30_000 });
  });
});
