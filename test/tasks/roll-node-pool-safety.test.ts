// The roll's safety gates over stateful fakes (FakeNodePoolBackend + FakeKubeCluster on a FakeClock): the volume detach
// wait, the pre-drain / pre-terminate lifecycle hooks, and the health gate between batches (which the canary soak ends
// through). Each test fails on a roll that terminates, cordons or starts the next batch regardless.
import { rollUntilDone, setupRoll, step, type RollWorld, type StepRecord } from './roll-harness';
import type { RollStepOutput } from '../../lambdas/contracts/cluster-update';
import { hookPrefix, LIFECYCLE_PHASE_ANNOTATION } from '../../lambdas/core/rollout/lifecycle-hooks';

const web =
  (replicas: number, minAvailable: number) =>
  (env: RollWorld['env'], nodes: string[]): void => {
    env.kube.addWorkload(
      { kind: 'Deployment', namespace: 'default', name: 'web', replicas, labels: { app: 'web' } },
      Array.from({ length: replicas }, (_, i) => nodes[i % nodes.length]!),
    );
    env.kube.addPdb('default', 'web', { app: 'web' }, minAvailable);
  };

const ONE_BY_ONE = { update_max_surge: '1', update_canary: 'false' };

interface StepState {
  previous?: RollStepOutput;
  index: number;
  lines: string[];
}

/** Steps until `until` holds after a step (or `max` steps), advancing the clock by each step's wait. */
async function stepUntil(
  world: RollWorld,
  until: (record: StepRecord) => boolean,
  state: StepState,
  max = 200,
): Promise<StepRecord> {
  for (let i = 0; i < max; i++) {
    const record = await step(world, ++state.index, 'exec-1', state.previous);
    state.lines.push(record.line);
    state.previous = record.output;
    if (until(record)) return record;
    if (record.output.status === 'DONE') throw new Error(`roll ended first:\n${state.lines.join('\n')}`);
    world.env.clock.advance(record.output.waitSeconds * 1000);
  }
  throw new Error(`condition not met in ${max} steps:\n${state.lines.slice(-8).join('\n')}`);
}

function nodeOf(world: RollWorld, index: number): string {
  return world.env.pools.nodeName(world.oldInstances[index]!);
}

describe('volume detach wait', () => {
  it('terminates a drained node only once its VolumeAttachments are gone', async () => {
    const world = await setupRoll({ size: 2, configItems: ONE_BY_ONE, workloads: web(2, 1) });
    const { env } = world;
    const first = world.oldInstances[0]!;
    env.kube.volumeAttachments.push({
      name: 'csi-0a1b',
      nodeName: nodeOf(world, 0),
      persistentVolumeName: 'pvc-data-pg-0',
      attached: true,
    });
    const state: StepState = { index: 0, lines: [] };

    const waiting = await stepUntil(world, (r) => (r.output.blockedBy ?? '').includes('volume attachment'), state);
    for (let i = 0; i < 3; i++) {
      env.clock.advance(waiting.output.waitSeconds * 1000);
      await stepUntil(world, () => true, state);
    }
    const terminatedWhileAttached = env.pools.terminated.includes(first);
    env.kube.volumeAttachments.length = 0;
    const result = await rollUntilDone(world, { from: state.index + 1, previous: state.previous! });

    expect(waiting.output.blockedBy).toContain(
      `1 volume attachment(s) on node ${nodeOf(world, 0)} to go (pvc-data-pg-0`,
    );
    expect(terminatedWhileAttached).toBe(false);
    expect(env.pools.terminated).toContain(first);
    expect(result.last.replaced).toBe(2);
    expect(env.kube.pdbViolations).toBe(0);
    expect(env.pools.terminatedTwice).toBe(0);
  });

  it('terminates anyway after update_volume_detach_timeout and records a problem naming node and volume', async () => {
    const world = await setupRoll({
      size: 2,
      configItems: { ...ONE_BY_ONE, update_volume_detach_timeout: '5m' },
      workloads: web(2, 1),
    });
    const { env } = world;
    env.kube.volumeAttachments.push({
      name: 'csi-stuck',
      nodeName: nodeOf(world, 0),
      persistentVolumeName: 'pvc-stuck',
      attached: true,
    });
    const state: StepState = { index: 0, lines: [] };
    await stepUntil(world, (r) => (r.output.blockedBy ?? '').includes('volume attachment'), state);
    const blockedAt = env.clock.now();

    await stepUntil(world, () => env.pools.terminated.includes(world.oldInstances[0]!), state);
    const terminatedAt = env.clock.now();
    await rollUntilDone(world, { from: state.index + 1, previous: state.previous! });

    expect(terminatedAt - blockedAt).toBeGreaterThan(5 * 60_000);
    const status = await env.progress.getStatus(world.cluster.id);
    expect(status?.problems.map((p) => p.title)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^RollNodePool workers: node ${nodeOf(world, 0)} terminated with volume\\(s\\) pvc-stuck still attached`,
        ),
      ),
    ]);
  });
});

describe('lifecycle hooks (annotation handshake, as Cluster API)', () => {
  it('pre-drain: neither cordons nor evicts the node while the hook annotation is there, and says so', async () => {
    const world = await setupRoll({ size: 2, configItems: ONE_BY_ONE, workloads: web(2, 1) });
    const { env } = world;
    const name = nodeOf(world, 0);
    const hook = `${hookPrefix('pre-drain')}backup`;
    env.kube.nodes.get(name)!.annotations[hook] = '';
    const state: StepState = { index: 0, lines: [] };

    const waiting = await stepUntil(world, (r) => (r.output.blockedBy ?? '').includes('pre-drain hook'), state);
    for (let i = 0; i < 3; i++) {
      env.clock.advance(waiting.output.waitSeconds * 1000);
      await stepUntil(world, () => true, state);
    }
    const cordonedEarly = env.kube.patches.some((p) => p.node === name && p.patch.unschedulable === true);
    const evictedEarly = env.kube.calls.some((c) => c.startsWith('evictPod') && c.includes(name));
    const announced = env.kube.nodes.get(name)!.annotations[LIFECYCLE_PHASE_ANNOTATION];
    delete env.kube.nodes.get(name)!.annotations[hook];
    const result = await rollUntilDone(world, { from: state.index + 1, previous: state.previous! });

    expect(waiting.output.blockedBy).toMatch(new RegExp(`^pre-drain hook\\(s\\) backup on node ${name} \\(waiting`));
    expect(waiting.output.message).toContain('blocked by pre-drain hook(s) backup');
    expect({ cordonedEarly, evictedEarly, announced }).toEqual({
      cordonedEarly: false,
      evictedEarly: false,
      announced: 'pre-drain',
    });
    expect(result.last.replaced).toBe(2);
    expect(env.kube.patches.some((p) => p.node === name && p.patch.unschedulable === true)).toBe(true);
    expect(env.kube.pdbViolations).toBe(0);
  });

  it('a pause stops the roll while a node waits for its pre-drain hooks (nothing was done to it yet)', async () => {
    const world = await setupRoll({ size: 2, configItems: ONE_BY_ONE, workloads: web(2, 1) });
    const { env } = world;
    const name = nodeOf(world, 0);
    env.kube.nodes.get(name)!.annotations[`${hookPrefix('pre-drain')}backup`] = '';
    const state: StepState = { index: 0, lines: [] };
    const waiting = await stepUntil(world, (r) => (r.output.blockedBy ?? '').includes('pre-drain hook'), state);
    await env.progress.putControls(world.cluster.id, { paused: true, reason: 'change freeze' });
    env.clock.advance(waiting.output.waitSeconds * 1000);

    const held = await stepUntil(world, () => true, state);

    expect(held.output.status).toBe('HELD');
    expect(held.output.message).toContain('held at a safe point');
    expect(env.kube.patches.some((p) => p.node === name && p.patch.unschedulable === true)).toBe(false);
    expect(env.pools.terminated).toEqual([]);
  });

  it('pre-terminate: a drained node is not terminated while the hook annotation is there', async () => {
    const world = await setupRoll({ size: 2, configItems: ONE_BY_ONE, workloads: web(2, 1) });
    const { env } = world;
    const name = nodeOf(world, 0);
    const hook = `${hookPrefix('pre-terminate')}deregister`;
    env.kube.nodes.get(name)!.annotations[hook] = '';
    const state: StepState = { index: 0, lines: [] };

    const waiting = await stepUntil(world, (r) => (r.output.blockedBy ?? '').includes('pre-terminate hook'), state);
    env.clock.advance(waiting.output.waitSeconds * 1000);
    await stepUntil(world, () => true, state);
    const podsLeft = (await env.kube.listPods({ nodeName: name })).filter((p) => p.owner?.kind !== 'DaemonSet');
    const terminatedEarly = env.pools.terminated.includes(world.oldInstances[0]!);
    delete env.kube.nodes.get(name)!.annotations[hook];
    await rollUntilDone(world, { from: state.index + 1, previous: state.previous! });

    expect(podsLeft).toEqual([]);
    expect(terminatedEarly).toBe(false);
    expect(env.kube.nodes.has(name)).toBe(false);
    expect(env.pools.terminated).toContain(world.oldInstances[0]);
  });

  it('fails the roll once a hook outlives update_hook_timeout, naming node, hook and what to do', async () => {
    const world = await setupRoll({
      size: 2,
      configItems: { ...ONE_BY_ONE, update_hook_timeout: '10m' },
      workloads: web(2, 1),
    });
    const name = nodeOf(world, 0);
    world.env.kube.nodes.get(name)!.annotations[`${hookPrefix('pre-drain')}backup`] = '';

    const failure = rollUntilDone(world);

    await expect(failure).rejects.toMatchObject({
      name: 'RolloutError',
      message: expect.stringMatching(
        new RegExp(`^node ${name}: pre-drain hook\\(s\\) backup still set after \\d+s \\(update_hook_timeout 600s\\)`),
      ),
    });
  });
});

describe('health gate between batches', () => {
  const alarmed = { update_max_surge: '1', update_canary: 'true', update_health_alarm: 'web-5xx' };

  it('stops at the boundary after the canary while the alarm is not OK (soak included), and goes on once it is', async () => {
    const world = await setupRoll({
      size: 3,
      configItems: { ...alarmed, update_canary_soak: '5m' },
      workloads: web(3, 2),
    });
    const { env } = world;
    env.alarms.states.set('web-5xx', 'ALARM');
    const cordons = () => env.kube.patches.filter((p) => p.patch.unschedulable === true).length;
    const state: StepState = { index: 0, lines: [] };

    await stepUntil(world, (r) => r.output.replaced >= 1, state);
    const blocked = await stepUntil(world, (r) => (r.output.blockedBy ?? '').startsWith('health gate'), state);
    const soakOver = env.clock.now() + 10 * 60_000;
    await stepUntil(world, () => env.clock.now() > soakOver, state);
    const cordonsWhileAlarm = cordons();
    env.alarms.states.set('web-5xx', 'OK');
    const result = await rollUntilDone(world, { from: state.index + 1, previous: state.previous! });

    expect(blocked.output.blockedBy).toMatch(
      /^health gate: CloudWatch alarm web-5xx is ALARM \(waiting \d+s of 1800s\)$/,
    );
    expect(blocked.output.message).toContain(
      '1/3 nodes replaced; blocked by health gate: CloudWatch alarm web-5xx is ALARM',
    );
    expect(cordonsWhileAlarm).toBe(1);
    expect(result.last.replaced).toBe(3);
    expect(env.kube.pdbViolations).toBe(0);
  });

  it('fails with the unhealthy alarm named once update_health_timeout is over', async () => {
    const world = await setupRoll({
      size: 3,
      configItems: { ...alarmed, update_health_timeout: '15m' },
      workloads: web(3, 2),
    });
    world.env.alarms.states.set('web-5xx', 'INSUFFICIENT_DATA');

    await expect(rollUntilDone(world)).rejects.toMatchObject({
      name: 'RolloutError',
      message: expect.stringMatching(
        /^health gate: CloudWatch alarm web-5xx is INSUFFICIENT_DATA \(unhealthy for \d+s, update_health_timeout 900s\); the roll stopped at a batch boundary, 1\/3 nodes replaced$/,
      ),
    });
  });

  it('waits for the owners of the evicted pods to be whole again before the next batch', async () => {
    const world = await setupRoll({
      size: 3,
      configItems: { update_max_surge: '1', update_canary: 'true' },
      workloads: web(3, 1),
    });
    const { env } = world;
    // Replacement pods start but never become Ready until the test says so.
    env.kube.podStartMs = 365 * 24 * 3_600_000;
    const cordons = () => env.kube.patches.filter((p) => p.patch.unschedulable === true).length;
    const state: StepState = { index: 0, lines: [] };

    await stepUntil(world, (r) => r.output.replaced >= 1, state);
    const blocked = await stepUntil(world, (r) => (r.output.blockedBy ?? '').startsWith('health gate'), state);
    const cordonsWhileUnhealthy = cordons();
    env.kube.podStartMs = 5_000;
    for (const pod of env.kube.pods)
      if (pod.readyAt !== undefined && pod.readyAt > env.clock.now()) pod.readyAt = env.clock.now();
    const result = await rollUntilDone(world, { from: state.index + 1, previous: state.previous! });

    expect(blocked.output.blockedBy).toMatch(/^health gate: ReplicaSet default\/web has 2\/3 replicas ready \(waiting/);
    expect(cordonsWhileUnhealthy).toBe(1);
    expect(result.last.replaced).toBe(3);
  });
});
