import type { Cluster } from '../../../lambdas/core/model/cluster';
import { createAccountFilter, selectClusters } from '../../../lambdas/core/selection/select-clusters';
import { ValidationError } from '../../../lambdas/shared/errors';

function cluster(id: string, account: string): Cluster {
  return {
    id,
    alias: id,
    localId: id,
    apiServerUrl: 'https://x.example.org',
    channel: 'main',
    configItems: {},
    criticalityLevel: 1,
    environment: 'test',
    infrastructureAccount: account,
    lifecycleStatus: 'ready',
    nodePools: [],
    provider: 'zalando-aws',
    region: 'eu-central-1',
    status: { currentVersion: '', lastVersion: '', nextVersion: '', problems: [] },
  };
}

const fleet = [
  cluster('c-test-1', 'aws:111111111111'),
  cluster('c-prod-1', 'aws:222222222222'),
  cluster('c-test-2', 'aws:111111111111'),
  cluster('c-prod-2', 'aws:333333333333'),
];

describe('createAccountFilter', () => {
  it('accepts everything by default', () => {
    expect(createAccountFilter()('aws:123456789012')).toBe(true);
  });

  it('lets exclude win over include', () => {
    const accepts = createAccountFilter({ include: 'aws:1', exclude: '1111' });
    expect(accepts('aws:111111111111')).toBe(false);
    expect(accepts('aws:122222222222')).toBe(true);
    expect(accepts('aws:222222222222')).toBe(false);
  });

  it('matches unanchored, like Go regexp.MatchString', () => {
    expect(createAccountFilter({ include: '2222' })('aws:222222222222')).toBe(true);
  });

  it('fails on an invalid expression naming the flag', () => {
    expect(() => createAccountFilter({ exclude: '(' })).toThrow(ValidationError);
    expect(() => createAccountFilter({ exclude: '(' })).toThrow(/^--exclude "\(" is not a valid regular expression/);
  });
});

describe('selectClusters', () => {
  it('keeps registry order and reports why clusters were skipped', () => {
    const { selected, skipped } = selectClusters(fleet, { exclude: '^aws:1' });
    expect(selected.map((c) => c.id)).toEqual(['c-prod-1', 'c-prod-2']);
    expect(skipped.map((s) => [s.cluster.id, s.reason])).toEqual([
      ['c-test-1', 'account aws:111111111111 matches --exclude ^aws:1'],
      ['c-test-2', 'account aws:111111111111 matches --exclude ^aws:1'],
    ]);
  });

  it('selects only the clusters named with --cluster, still applying the account filter', () => {
    const { selected, skipped } = selectClusters(fleet, { clusterIds: ['c-prod-2', 'c-test-1'], include: '333' });
    expect(selected.map((c) => c.id)).toEqual(['c-prod-2']);
    expect(skipped.map((s) => s.reason)).toEqual(['account aws:111111111111 does not match --include 333']);
  });

  it('fails for unknown cluster ids, listing the known ids and a close match', () => {
    let error: ValidationError | undefined;
    try {
      selectClusters(fleet, { clusterIds: ['c-prod-3', 'c-prod-1'] });
    } catch (e) {
      error = e as ValidationError;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(error!.message).toMatch(/^unknown cluster id c-prod-3; known: c-test-1, c-prod-1, c-test-2, c-prod-2/);
    expect(error!.issues).toEqual(['--cluster c-prod-3: no such cluster in the registry (did you mean c-prod-1?)']);
  });

  it('lists at most 20 known ids', () => {
    const many = Array.from({ length: 25 }, (_, i) => cluster(`k-${i}`, 'aws:111111111111'));
    expect(() => selectClusters(many, { clusterIds: ['zzz'] })).toThrow(/known: k-0, .*k-19 and 5 more/);
  });
});
