import {
  asgSize,
  azCount,
  nodeLifeCycleProviderPerNodePoolGroup,
  parseTaints,
  zoneDistributedNodePoolGroups,
} from '../../../lambdas/core/template-helpers/kube';
import type { TemplatePool } from '../../../lambdas/core/template-helpers/kube';

const pool = (Profile: string, ConfigItems: Record<string, string> = {}, Name = Profile): TemplatePool => ({
  Name,
  Profile,
  ConfigItems,
});

describe('zoneDistributedNodePoolGroups', () => {
  it('marks the default group when every untainted worker pool is split-AZ or Karpenter', () => {
    const pools = [pool('master-default'), pool('worker-splitaz'), pool('worker-karpenter')];
    expect(zoneDistributedNodePoolGroups(pools)).toEqual({ '': true });
  });

  it('leaves out the default group when one of its pools is worker-combined', () => {
    expect(zoneDistributedNodePoolGroups([pool('worker-splitaz'), pool('worker-combined')])).toEqual({});
  });

  it('leaves out a group with a pool pinned to zones', () => {
    expect(zoneDistributedNodePoolGroups([pool('worker-splitaz', { availability_zones: 'eu-central-1a' })])).toEqual(
      {},
    );
  });

  it('needs the matching dedicated taint on every pool of a dedicated group', () => {
    const good = pool('worker-splitaz', { labels: 'team=x,dedicated=db', taints: 'dedicated=db:NoSchedule' });
    const wrongTaint = pool('worker-splitaz', { labels: 'dedicated=ml', taints: 'dedicated=ml:NoExecute' });
    expect(zoneDistributedNodePoolGroups([good, wrongTaint])).toEqual({ db: true });
  });

  it('ignores tainted pools without a dedicated label, and master pools', () => {
    const pools = [
      pool('worker-combined', { taints: 'x=y:NoSchedule' }),
      pool('master-default'),
      pool('worker-splitaz'),
    ];
    expect(zoneDistributedNodePoolGroups(pools)).toEqual({ '': true });
  });

  it('lists groups with sorted keys (Go ranges over maps in key order)', () => {
    const pools = [
      pool('worker-splitaz', { labels: 'dedicated=zeta', taints: 'dedicated=zeta:NoSchedule' }),
      pool('worker-splitaz', { labels: 'dedicated=alpha', taints: 'dedicated=alpha:NoSchedule' }),
      pool('worker-splitaz'),
    ];
    expect(Object.keys(zoneDistributedNodePoolGroups(pools))).toEqual(['', 'alpha', 'zeta']);
  });
});

describe('nodeLifeCycleProviderPerNodePoolGroup', () => {
  it.each([
    [[pool('worker-karpenter'), pool('worker-karpenter')], { default: 'karpenter' }],
    [[pool('worker-splitaz'), pool('worker-splitaz')], { default: 'zalando' }],
    [[pool('worker-combined')], { default: 'zalando' }],
    [[pool('worker-splitaz'), pool('worker-combined')], { default: '' }],
    [[pool('worker-karpenter'), pool('worker-splitaz')], { default: '' }],
    [[pool('worker-special')], { default: '' }],
    [[pool('master-default')], {}],
  ])('%#', (pools, expected) => {
    expect(nodeLifeCycleProviderPerNodePoolGroup(pools)).toEqual(expected);
  });

  it('names dedicated groups by their label', () => {
    const pools = [
      pool('worker-karpenter', { labels: 'dedicated=gpu', taints: 'dedicated=gpu:NoSchedule' }),
      pool('worker-splitaz'),
    ];
    expect(nodeLifeCycleProviderPerNodePoolGroup(pools)).toEqual({ default: 'zalando', gpu: 'karpenter' });
  });
});

describe('asgSize / azCount', () => {
  it('divides a pool size among ASGs exactly', () => {
    expect(asgSize(9, 3)).toBe(3);
    expect(() => asgSize(10, 3)).toThrow('pool size must be an exact multiple of 3');
  });

  it('counts zones, not the * entry', () => {
    expect(azCount({ 'eu-central-1a': 's-1', 'eu-central-1b': 's-2', '*': 's-1,s-2' })).toBe(2);
    expect(azCount({ '*': '' })).toBe(0);
    expect(azCount({})).toBe(0);
  });
});

describe('parseTaints', () => {
  it('parses key[=value]:Effect lists and skips invalid entries, as CLM', () => {
    expect(parseTaints('dedicated=db:NoSchedule,key:NoExecute,bare,bad=:Nope,a=b=c:NoSchedule,x=y')).toEqual([
      { Key: 'dedicated', Value: 'db', Effect: 'NoSchedule' },
      { Key: 'key', Value: '', Effect: 'NoExecute' },
      { Key: 'bare', Value: '', Effect: '' },
    ]);
  });

  it('is undefined when there is no taints item', () => {
    expect(parseTaints(undefined)).toBeUndefined();
  });
});
