import { formatAge, parseAgeDuration } from '../../../lambdas/core/node-renewal/age-duration';
import { allowedUnhealthy, capExceeded, parseRepairCap } from '../../../lambdas/core/node-renewal/repair-cap';
import { renewalSettings } from '../../../lambdas/core/node-renewal/renewal-settings';
import { isUnhealthy, notReadyFor } from '../../../lambdas/core/node-renewal/unhealthy-nodes';
import { lostPodGone } from '../../../lambdas/core/node-renewal/lost-node';
import { ConfigError } from '../../../lambdas/shared/errors';

const T0 = Date.parse('2026-03-01T00:00:00Z');
const MIN = 60_000;

describe('age durations', () => {
  it('reads Go durations and days in front', () => {
    expect(parseAgeDuration('10m')).toBe(10 * MIN);
    expect(parseAgeDuration('30d')).toBe(30 * 24 * 60 * MIN);
    expect(parseAgeDuration('7d12h')).toBe((7 * 24 + 12) * 60 * MIN);
    expect(parseAgeDuration('720h')).toBe(30 * 24 * 60 * MIN);
  });

  it('refuses what is not a duration', () => {
    for (const bad of ['', '30', 'd', '3w', '10 minutes', '1d2'])
      expect({ bad, ms: parseAgeDuration(bad) }).toEqual({ bad, ms: undefined });
  });

  it('formats as a person reads it', () => {
    expect(formatAge(0)).toBe('0s');
    expect(formatAge((2 * 24 + 3) * 60 * MIN + 5000)).toBe('2d3h5s');
  });
});

describe('the repair cap', () => {
  it('parses a percentage or a count', () => {
    expect(parseRepairCap('40%')).toEqual({ percent: 40 });
    expect(parseRepairCap(' 3 ')).toEqual({ count: 3 });
    expect(parseRepairCap('140%')).toBeUndefined();
    expect(parseRepairCap('-1')).toBeUndefined();
  });

  it('rounds a percentage down, but allows one node at least; a count as given', () => {
    expect(allowedUnhealthy({ percent: 40 }, 4)).toBe(1);
    expect(allowedUnhealthy({ percent: 40 }, 10)).toBe(4);
    expect(allowedUnhealthy({ percent: 40 }, 2)).toBe(1);
    expect(allowedUnhealthy({ count: 0 }, 10)).toBe(0);
  });

  it('holds when half a pool fails, and names the scope', () => {
    const pool = { name: 'pool default-worker', unhealthy: 2, total: 4, cap: { percent: 40 } };
    expect(capExceeded([pool])).toContain('2 of 4 nodes of the pool default-worker are unhealthy');
    expect(capExceeded([{ ...pool, unhealthy: 1 }])).toBeUndefined();
    const cluster = { name: 'cluster', unhealthy: 5, total: 10, cap: { count: 3 } };
    expect(capExceeded([{ ...pool, unhealthy: 1 }, cluster])).toContain('of the cluster');
  });
});

describe('unhealthy nodes', () => {
  const node = (ready: boolean, since?: number) => ({
    ready,
    ...(since !== undefined ? { notReadySince: new Date(since).toISOString() } : {}),
  });

  it('is NotReady for node_repair_after, by the Ready condition', () => {
    expect(notReadyFor(node(false, T0), T0 + 5 * MIN)).toBe(5 * MIN);
    expect(isUnhealthy(node(false, T0), 10 * MIN, T0 + 9 * MIN)).toBe(false);
    expect(isUnhealthy(node(false, T0), 10 * MIN, T0 + 10 * MIN)).toBe(true);
  });

  it('never takes a Ready node, or one that does not say since when, for unhealthy', () => {
    expect(isUnhealthy(node(true, T0), 0, T0 + 60 * MIN)).toBe(false);
    expect(isUnhealthy(node(false), 0, T0 + 60 * MIN)).toBe(false);
  });

  it('counts a pod of a lost node gone once its grace is over', () => {
    const deletesBy = new Date(T0).toISOString();
    expect(lostPodGone({ deleting: true, deletesBy }, T0 - 1)).toBe(false);
    expect(lostPodGone({ deleting: true, deletesBy }, T0)).toBe(true);
    expect(lostPodGone({ deleting: false }, T0)).toBe(false);
  });
});

describe('renewal settings', () => {
  const pool = { name: 'workers', profile: 'worker-default' };

  it('defaults: no repair, 10m, 40%, windows respected, no maximum age', () => {
    expect(renewalSettings(pool, {}, 'c1')).toEqual({
      repair: false,
      repairAfterMs: 10 * MIN,
      cap: { percent: 40 },
      outsideWindows: false,
      leftToKarpenter: false,
    });
  });

  it('leaves a Karpenter pool to Karpenter when its NodeRepair gate is on', () => {
    const items = { node_repair: 'true', karpenter_feature_gates: 'Drift=false,NodeRepair=true' };
    expect(renewalSettings({ name: 'k', profile: 'worker-karpenter' }, items, 'c1').leftToKarpenter).toBe(true);
    expect(renewalSettings(pool, items, 'c1').leftToKarpenter).toBe(false);
  });

  it('refuses a bad item, naming the cluster and the field', () => {
    const bad = () => renewalSettings(pool, { node_max_age: 'a month' }, 'c1');
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow('node_max_age must be a duration such as 10m, 6h or 30d, got "a month"');
    expect(() => renewalSettings(pool, { node_repair_max_unhealthy: 'half' }, 'c1')).toThrow(/percentage/);
  });
});
