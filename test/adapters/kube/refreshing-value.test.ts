import { refreshingValue } from '../../../lambdas/adapters/kube/refreshing-value';

describe('refreshingValue', () => {
  it('loads once for concurrent callers, again after maxAgeMs, and forgets a failed load', async () => {
    let now = 0;
    const loads: number[] = [];
    let fail = false;
    const value = refreshingValue(
      async (at) => {
        loads.push(at);
        if (fail) throw new Error('no');
        return `v${loads.length}`;
      },
      100,
      () => now,
    );

    expect(await Promise.all([value(), value()])).toEqual(['v1', 'v1']);
    now = 99;
    expect(await value()).toBe('v1');
    now = 100;
    fail = true;
    await expect(value()).rejects.toThrow('no');
    fail = false;
    expect(await value()).toBe('v3');
    expect(loads).toEqual([0, 100, 100]);
  });
});
