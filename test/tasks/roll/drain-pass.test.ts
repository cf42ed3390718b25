import { isEvictable } from '../../../lambdas/core/rollout/drain-rules';
import { drainPass } from '../../../lambdas/tasks/roll/drain-pass';
import type { DrainSettings } from '../../../lambdas/core/rollout/roll-policy';
import type { NodeProgress } from '../../../lambdas/core/model/run';
import { FakeClock, FakeKubeCluster } from '../../support/fakes';

const HOUR = 3_600_000;
const SETTINGS: DrainSettings = {
  gracePeriodMs: 6 * HOUR,
  minPodLifetimeMs: 72 * HOUR,
  minHealthySiblingLifetimeMs: HOUR,
  minUnhealthySiblingLifetimeMs: 6 * HOUR,
  forceEvictIntervalMs: 5 * 60_000,
  pollIntervalMs: 10_000,
};

function setup(): { clock: FakeClock; kube: FakeKubeCluster } {
  const clock = new FakeClock();
  const kube = new FakeKubeCluster(clock);
  kube.addNode('old', 'a', 'i-old');
  kube.addNode('other', 'a', 'i-other');
  return { clock, kube };
}

/** A Deployment "web" with pods on the given nodes, created `ageMs` ago and Ready, guarded by a PDB. */
function guardedWeb(
  kube: FakeKubeCluster,
  clock: FakeClock,
  nodes: string[],
  minAvailable: number,
  ageMs = 100 * HOUR,
): void {
  nodes.forEach((nodeName, i) =>
    kube.createPod({
      namespace: 'default',
      name: `web-${i}`,
      nodeName,
      labels: { app: 'web' },
      owner: { kind: 'ReplicaSet', name: 'web' },
      createdAt: clock.now() - ageMs,
      readyAt: 0,
    }),
  );
  kube.addPdb('default', 'web', { app: 'web' }, minAvailable);
}

const draining = (drainStartedAt: number, extra: Partial<NodeProgress> = {}): NodeProgress => ({
  instanceId: 'i-old',
  nodeName: 'old',
  state: 'draining',
  drainStartedAt,
  ...extra,
});

describe('isEvictable', () => {
  const base = {
    namespace: 'n',
    name: 'p',
    uid: 'u',
    phase: 'Running',
    ready: true,
    labels: {},
    annotations: {},
    createdAt: '2024-01-01T00:00:00Z',
    terminationGracePeriodSeconds: 30,
    deleting: false,
  };

  it('skips DaemonSet pods, mirror pods and finished pods', () => {
    expect(isEvictable({ ...base, owner: { kind: 'DaemonSet', name: 'kube-proxy' } })).toBe(false);
    expect(isEvictable({ ...base, annotations: { 'kubernetes.io/config.mirror': 'abc' } })).toBe(false);
    expect(isEvictable({ ...base, phase: 'Succeeded' })).toBe(false);
    expect(isEvictable({ ...base, phase: 'Failed' })).toBe(false);
    expect(isEvictable({ ...base, owner: { kind: 'ReplicaSet', name: 'web' } })).toBe(true);
  });
});

describe('drainPass', () => {
  it('reports a node with only DaemonSet, mirror and finished pods as empty without evicting anything', async () => {
    const { clock, kube } = setup();
    kube.createPod({
      namespace: 'kube-system',
      name: 'proxy',
      nodeName: 'old',
      owner: { kind: 'DaemonSet', name: 'kube-proxy' },
    });
    kube.createPod({
      namespace: 'kube-system',
      name: 'apiserver-old',
      nodeName: 'old',
      annotations: { 'kubernetes.io/config.mirror': 'x' },
    });
    kube.createPod({ namespace: 'jobs', name: 'done', nodeName: 'old', phase: 'Succeeded' });

    const outcome = await drainPass(kube, 'old', draining(clock.now()), SETTINGS, clock.now());

    expect(outcome.empty).toBe(true);
    expect(kube.callCount('evictPod')).toBe(0);
  });

  it('evicts pods and waits for them to terminate before reporting the node empty', async () => {
    const { clock, kube } = setup();
    kube.createPod({ namespace: 'default', name: 'a', nodeName: 'old', grace: 20 });
    kube.createPod({ namespace: 'default', name: 'b', nodeName: 'old', grace: 45 });

    const first = await drainPass(kube, 'old', draining(clock.now()), SETTINGS, clock.now());
    clock.advance(45_000);
    const second = await drainPass(kube, 'old', draining(clock.now()), SETTINGS, clock.now());

    expect(first).toMatchObject({ empty: false, evicted: 2, blocked: [], terminatingSeconds: 45 });
    expect(second.empty).toBe(true);
    expect(kube.callCount('evictPod')).toBe(2);
  });

  it('waits for a pod already on its way out only until its deletion grace ends (and a second), not a whole grace', async () => {
    const { clock, kube } = setup();
    kube.createPod({ namespace: 'default', name: 'slow', nodeName: 'old', grace: 45 });
    await drainPass(kube, 'old', draining(clock.now()), SETTINGS, clock.now());
    clock.advance(40_000);

    const again = await drainPass(kube, 'old', draining(clock.now()), SETTINGS, clock.now());

    expect(again).toMatchObject({ empty: false, evicted: 0, terminatingSeconds: 6 });
  });

  it('reports a PDB refusal as a readable blocker and does not delete the pod', async () => {
    const { clock, kube } = setup();
    guardedWeb(kube, clock, ['old', 'other'], 2);

    const outcome = await drainPass(kube, 'old', draining(clock.now()), SETTINGS, clock.now());

    expect(outcome.empty).toBe(false);
    expect(outcome.blocked).toEqual(['PDB default/web allows 0 disruption(s) (2/2 healthy) for pod default/web-0']);
    expect(outcome.forced).toEqual([]);
    expect(kube.callCount('deletePod')).toBe(0);
  });

  describe('smart force', () => {
    const graceOver = (clock: FakeClock): number => clock.now() - 6 * HOUR;

    it('force-deletes a PDB-blocked pod once the grace period passed and the pod and its siblings are old enough', async () => {
      const { clock, kube } = setup();
      guardedWeb(kube, clock, ['old', 'other'], 2);

      const outcome = await drainPass(kube, 'old', draining(graceOver(clock)), SETTINGS, clock.now());

      expect(outcome.forced).toEqual(['default/web-0']);
      expect(outcome.blocked).toEqual([]);
      expect(outcome.progress.lastForcedAt).toBe(clock.now());
      expect(kube.calls).toContain('deletePod default/web-0');
      // Kept on the node as CLM does, so the force interval holds across runs.
      expect(kube.patches).toContainEqual({
        node: 'old',
        patch: {
          annotations: {
            'cluster-lifecycle-manager.zalando.org/last-forced-drain': new Date(clock.now()).toISOString(),
          },
        },
      });
    });

    it('does not force before the drain grace period', async () => {
      const { clock, kube } = setup();
      guardedWeb(kube, clock, ['old', 'other'], 2);

      const outcome = await drainPass(kube, 'old', draining(graceOver(clock) + 1), SETTINGS, clock.now());

      expect(outcome.forced).toEqual([]);
      expect(outcome.blocked).toHaveLength(1);
    });

    it('does not force when the node has no drain start', async () => {
      const { clock, kube } = setup();
      guardedWeb(kube, clock, ['old', 'other'], 2);

      const outcome = await drainPass(kube, 'old', { instanceId: 'i-old', state: 'draining' }, SETTINGS, clock.now());

      expect(outcome.forced).toEqual([]);
    });

    it('respects the force interval', async () => {
      const { clock, kube } = setup();
      guardedWeb(kube, clock, ['old', 'other'], 2);

      const tooSoon = await drainPass(
        kube,
        'old',
        draining(graceOver(clock), { lastForcedAt: clock.now() - 5 * 60_000 + 1 }),
        SETTINGS,
        clock.now(),
      );
      const later = await drainPass(
        kube,
        'old',
        draining(graceOver(clock), { lastForcedAt: clock.now() - 5 * 60_000 }),
        SETTINGS,
        clock.now(),
      );

      expect(tooSoon.forced).toEqual([]);
      expect(later.forced).toEqual(['default/web-0']);
    });

    it('does not force a pod younger than the minimum pod lifetime', async () => {
      const { clock, kube } = setup();
      guardedWeb(kube, clock, ['old', 'other'], 2, 72 * HOUR - 1);

      const outcome = await drainPass(kube, 'old', draining(graceOver(clock)), SETTINGS, clock.now());

      expect(outcome.forced).toEqual([]);
    });

    it('does not force while a healthy sibling is younger than the healthy-sibling lifetime', async () => {
      const { clock, kube } = setup();
      guardedWeb(kube, clock, ['old'], 2);
      kube.createPod({
        namespace: 'default',
        name: 'web-young',
        nodeName: 'other',
        labels: { app: 'web' },
        createdAt: clock.now() - HOUR + 1,
        readyAt: 0,
      });

      const young = await drainPass(kube, 'old', draining(graceOver(clock)), SETTINGS, clock.now());
      clock.advance(1);
      const oldEnough = await drainPass(kube, 'old', draining(graceOver(clock)), SETTINGS, clock.now());

      expect(young.forced).toEqual([]);
      expect(oldEnough.forced).toEqual(['default/web-0']);
    });

    it('does not force while an unhealthy sibling is younger than the unhealthy-sibling lifetime', async () => {
      const { clock, kube } = setup();
      guardedWeb(kube, clock, ['old', 'other'], 2);
      kube.createPod({
        namespace: 'default',
        name: 'web-sick',
        nodeName: 'other',
        labels: { app: 'web' },
        createdAt: clock.now() - 2 * HOUR,
        readyAt: undefined,
      });

      const outcome = await drainPass(kube, 'old', draining(graceOver(clock)), SETTINGS, clock.now());

      expect(outcome.forced).toEqual([]);
    });

    it('ignores Job pods and finished pods among the siblings', async () => {
      const { clock, kube } = setup();
      guardedWeb(kube, clock, ['old', 'other'], 3);
      kube.createPod({
        namespace: 'default',
        name: 'web-job',
        nodeName: 'other',
        labels: { app: 'web' },
        owner: { kind: 'Job', name: 'j' },
        createdAt: clock.now(),
      });
      kube.createPod({
        namespace: 'default',
        name: 'web-done',
        nodeName: 'other',
        labels: { app: 'web' },
        phase: 'Succeeded',
        createdAt: clock.now(),
      });

      const outcome = await drainPass(kube, 'old', draining(graceOver(clock)), SETTINGS, clock.now());

      expect(outcome.forced).toEqual(['default/web-0']);
    });

    it('forces at most one pod per pass', async () => {
      const { clock, kube } = setup();
      guardedWeb(kube, clock, ['old', 'old', 'other'], 3);

      const outcome = await drainPass(kube, 'old', draining(graceOver(clock)), SETTINGS, clock.now());

      expect(outcome.forced).toHaveLength(1);
      expect(outcome.blocked).toHaveLength(1);
      expect(kube.callCount('deletePod')).toBe(1);
    });
  });
});
