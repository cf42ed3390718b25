// The pure parts of the roll's safety gates: lifecycle hooks, volume detach wait, the health gate between batches.
import {
  gateDue,
  gateVerdict,
  healthFindings,
  ownersToCheck,
  parseWorkloadKey,
  workloadKey,
} from '../../../lambdas/core/rollout/health-gate';
import { holdPlan } from '../../../lambdas/core/rollout/hold-roll';
import { hookPrefix, hookVerdict, pendingHooks } from '../../../lambdas/core/rollout/lifecycle-hooks';
import type { RollPlan } from '../../../lambdas/core/rollout/plan-roll-step';
import type { PoolNode, PoolSnapshot } from '../../../lambdas/core/rollout/pool-snapshot';
import { rollPolicy } from '../../../lambdas/core/rollout/roll-policy';
import { attachmentsOf, detachVerdict } from '../../../lambdas/core/rollout/volume-detach';
import type { PoolProgress } from '../../../lambdas/core/model/run';

const NOW = Date.parse('2024-05-01T12:00:00Z');
const MIN = 60_000;

function progress(extra: Partial<PoolProgress> = {}): PoolProgress {
  return { status: 'rolling', total: 4, replaced: 1, nodes: {}, steps: 3, baseDesired: 4, ...extra };
}

const plan = (extra: Partial<RollPlan> = {}): RollPlan => ({ done: false, mark: [], cordon: [], drain: [], ...extra });
const someNode = {
  instanceId: 'i-2',
  availabilityZone: 'a',
  outdated: true,
  lifecycleState: 'InService',
  ready: true,
} as PoolNode;

describe('lifecycle hooks', () => {
  const node = {
    annotations: {
      [`${hookPrefix('pre-drain')}backup`]: '',
      [`${hookPrefix('pre-drain')}audit`]: 'x',
      [`${hookPrefix('pre-terminate')}lb`]: '',
      'pre-drain.delete.hook.cluster.x-k8s.io/other': '',
    },
  };

  it('finds the hooks of a phase by their annotation prefix', () => {
    expect(pendingHooks(node, 'pre-drain')).toEqual(['audit', 'backup']);
    expect(pendingHooks(node, 'pre-terminate')).toEqual(['lb']);
    expect(pendingHooks({ annotations: {} }, 'pre-drain')).toEqual([]);
  });

  it('goes without hooks, waits within the bound, times out after it', () => {
    expect(hookVerdict('n1', [], 'pre-drain', undefined, 10 * MIN, NOW)).toEqual({ kind: 'go' });
    expect(hookVerdict('n1', ['backup'], 'pre-drain', undefined, 10 * MIN, NOW)).toEqual({
      kind: 'wait',
      since: NOW,
      blocked: 'pre-drain hook(s) backup on node n1 (waiting 0s of 600s)',
    });
    expect(hookVerdict('n1', ['backup'], 'pre-drain', NOW - 10 * MIN, 10 * MIN, NOW).kind).toBe('wait');
    expect(hookVerdict('n1', ['lb'], 'pre-terminate', NOW - 11 * MIN, 10 * MIN, NOW)).toEqual({
      kind: 'timeout',
      detail: expect.stringMatching(
        /^node n1: pre-terminate hook\(s\) lb still set after 660s \(update_hook_timeout 600s\)/,
      ),
    });
  });
});

describe('a hold while nodes wait for pre-drain hooks', () => {
  it('lets the roll stop: such nodes are not in flight, drains that started are', () => {
    const waiting = { ...someNode, instanceId: 'i-hooked' };
    const draining = { ...someNode, instanceId: 'i-draining' };
    const hooked = (n: PoolNode) => n.instanceId === 'i-hooked';

    expect(holdPlan(plan({ drain: [waiting], cordon: [someNode] }), hooked)).toEqual({
      plan: plan(),
      safe: true,
    });
    expect(holdPlan(plan({ drain: [waiting, draining] }), hooked)).toEqual({
      plan: plan({ drain: [draining] }),
      safe: false,
    });
    expect(holdPlan(plan({ drain: [waiting] })).safe).toBe(false);
  });
});

describe('volume detach wait', () => {
  const attachments = [
    { name: 'csi-1', nodeName: 'n1', persistentVolumeName: 'pv-a', attached: true },
    { name: 'csi-2', nodeName: 'n2', attached: false },
  ];

  it('waits for the attachments naming the node, then times out with a problem', () => {
    expect(attachmentsOf(attachments, 'n2').map((a) => a.name)).toEqual(['csi-2']);
    expect(detachVerdict('n3', attachmentsOf(attachments, 'n3'), undefined, 6 * MIN, NOW)).toEqual({
      kind: 'detached',
    });
    expect(detachVerdict('n1', attachmentsOf(attachments, 'n1'), NOW - MIN, 6 * MIN, NOW)).toEqual({
      kind: 'wait',
      since: NOW - MIN,
      blocked: '1 volume attachment(s) on node n1 to go (pv-a; waiting 60s of 360s)',
    });
    expect(detachVerdict('n2', attachmentsOf(attachments, 'n2'), NOW - 7 * MIN, 6 * MIN, NOW)).toEqual({
      kind: 'timeout',
      detail: 'node n2 terminated with volume(s) csi-2 still attached after 420s (update_volume_detach_timeout 360s)',
    });
  });
});

describe('health gate', () => {
  const terminated = (id: string, at: number, owners: string[]) => ({
    [id]: { instanceId: id, state: 'terminated' as const, terminatedAt: at, owners },
  });

  it('is due at a batch boundary (a cordon or the end) when nodes went since the last pass', () => {
    const went = progress({
      nodes: terminated('i-1', NOW - MIN, ['ReplicaSet default/web-1']),
      gatedAt: NOW - 2 * MIN,
    });
    expect(gateDue(plan({ cordon: [someNode] }), went)).toBe(true);
    expect(gateDue(plan({ done: true }), went)).toBe(true);
    expect(gateDue(plan({ drain: [someNode] }), went)).toBe(false);
    expect(gateDue(plan({ cordon: [someNode] }), { ...went, gatedAt: NOW })).toBe(false);
    expect(gateDue(plan({ cordon: [someNode] }), progress())).toBe(false);
  });

  it('checks the owners of the pods evicted from the nodes gone since the last pass', () => {
    const nodes = {
      ...terminated('i-1', NOW - 5 * MIN, ['ReplicaSet default/old']),
      ...terminated('i-2', NOW - MIN, ['StatefulSet data/pg', 'ReplicaSet default/web-1']),
      ...terminated('i-3', NOW - MIN, ['ReplicaSet default/web-1']),
    };
    expect(ownersToCheck(progress({ nodes, gatedAt: NOW - 2 * MIN })).map(workloadKey)).toEqual([
      'ReplicaSet default/web-1',
      'StatefulSet data/pg',
    ]);
    expect(parseWorkloadKey('nonsense')).toBeUndefined();
  });

  it('names every unhealthy thing: new nodes NotReady, owners short of ready replicas, the alarm', () => {
    const snapshot: PoolSnapshot = {
      desired: 2,
      min: 0,
      max: 4,
      nodes: [
        { ...someNode, outdated: false, node: { name: 'ip-new', ready: false } as PoolNode['node'] },
        { ...someNode, node: { name: 'ip-old', ready: false } as PoolNode['node'] },
      ],
    };
    const web = { kind: 'ReplicaSet', namespace: 'default', name: 'web-1' };
    expect(
      healthFindings({
        snapshot,
        owners: [
          { ref: web, desired: 3, ready: 2 },
          { ref: { ...web, name: 'ok' }, desired: 1, ready: 1 },
        ],
        alarm: { name: 'web-5xx', state: 'ALARM' },
      }),
    ).toEqual([
      'new node ip-new is NotReady',
      'ReplicaSet default/web-1 has 2/3 replicas ready',
      'CloudWatch alarm web-5xx is ALARM',
    ]);
    expect(
      healthFindings({ snapshot: { ...snapshot, nodes: [] }, owners: [], alarm: { name: 'x', state: undefined } }),
    ).toEqual(['CloudWatch alarm x does not exist']);
  });

  it('passes, waits since the first unhealthy check, fails after the bound', () => {
    expect(gateVerdict([], progress(), 30 * MIN, NOW)).toEqual({ kind: 'pass' });
    expect(gateVerdict(['CloudWatch alarm a is ALARM'], progress(), 30 * MIN, NOW)).toEqual({
      kind: 'wait',
      since: NOW,
      blocked: 'health gate: CloudWatch alarm a is ALARM (waiting 0s of 1800s)',
    });
    expect(gateVerdict(['x'], progress({ unhealthySince: NOW - 31 * MIN }), 30 * MIN, NOW)).toEqual({
      kind: 'fail',
      detail:
        'health gate: x (unhealthy for 1860s, update_health_timeout 1800s); the roll stopped at a batch boundary, 1/4 nodes replaced',
    });
  });

  it('reads its bounds and the alarm from the pool-inherited config items, refusing bad durations', () => {
    const pool = { name: 'workers', maxSize: 10, discountStrategy: 'none' };
    expect(rollPolicy(pool, {}, 'c1')).toMatchObject({
      healthTimeoutMs: 30 * MIN,
      volumeDetachTimeoutMs: 6 * MIN,
      hookTimeoutMs: 60 * MIN,
    });
    expect(rollPolicy(pool, {}, 'c1').healthAlarm).toBeUndefined();
    const items = {
      update_health_timeout: '5m',
      update_health_alarm: 'web-5xx',
      update_volume_detach_timeout: '90s',
      update_hook_timeout: '2h',
    };
    expect(rollPolicy(pool, items, 'c1')).toMatchObject({
      healthTimeoutMs: 5 * MIN,
      healthAlarm: 'web-5xx',
      volumeDetachTimeoutMs: 90_000,
      hookTimeoutMs: 120 * MIN,
    });
    expect(() => rollPolicy(pool, { update_hook_timeout: 'soon' }, 'c1')).toThrow(
      'config item update_hook_timeout must be a Go duration such as 30s, 10m or 6h, got "soon"',
    );
  });
});
