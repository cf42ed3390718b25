import { matches, matchesSelector, parseSelector } from '../../../lambdas/core/kube/label-selector';

describe('label selectors', () => {
  const labels = { app: 'web', tier: 'front' };

  it('matches the object form: matchLabels and every expression operator', () => {
    expect(matchesSelector({ matchLabels: { app: 'web' } }, labels)).toBe(true);
    expect(matchesSelector({ matchLabels: { app: 'db' } }, labels)).toBe(false);
    expect(matchesSelector({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }] }, labels)).toBe(
      true,
    );
    expect(matchesSelector({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] }, labels)).toBe(
      false,
    );
    expect(matchesSelector({ matchExpressions: [{ key: 'app', operator: 'Exists' }] }, labels)).toBe(true);
    expect(matchesSelector({ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, labels)).toBe(true);
  });

  it('treats {} as everything, no selector as nothing, and an unknown operator as no match', () => {
    expect(matchesSelector({}, labels)).toBe(true);
    expect(matchesSelector(undefined, labels)).toBe(false);
    expect(matchesSelector({ matchExpressions: [{ key: 'app', operator: 'Like', values: ['web'] }] }, labels)).toBe(
      false,
    );
  });

  it('parses the string form', () => {
    expect(matches(parseSelector('app=web,tier in (front,back),!zone'), labels)).toBe(true);
    expect(matches(parseSelector('app!=web'), labels)).toBe(false);
    expect(() => parseSelector('app in front')).toThrow(/unable to parse label selector requirement "app in front"/);
  });
});
