import {
  giveBackToBucket,
  shardLimits,
  shardOrder,
  takeFromBucket,
  tokensAt,
  withinBucket,
} from '../../../lambdas/core/capacity/launch-bucket';

const LIMITS = { perSecond: 2, burst: 10 };

describe('the launch bucket', () => {
  it('starts full, grants whole launches up to what it holds, and says when the next one comes', () => {
    const first = takeFromBucket(undefined, 4, 0, LIMITS);
    expect(first).toEqual({ granted: 4, state: { tokens: 6, at: 0 } });
    const second = takeFromBucket(first.state, 20, 0, LIMITS);
    expect(second.granted).toBe(6);
    expect(second.nextAt).toBe(500);
    // Refilled at 2 per second, never past its size.
    expect(tokensAt(second.state, 1_250, 2, 10)).toBe(2.5);
    expect(tokensAt(second.state, 60_000, 2, 10)).toBe(10);
    expect(takeFromBucket(second.state, 3, 1_250, LIMITS)).toMatchObject({ granted: 2, nextAt: 1_500 });
  });

  it('does not refill backwards when a caller’s clock is behind the stored time', () => {
    const taken = takeFromBucket({ tokens: 0, at: 5_000 }, 1, 4_000, LIMITS);
    expect(taken).toEqual({ granted: 0, state: { tokens: 0, at: 5_000 }, nextAt: 5_500 });
  });

  it('takes back unused launches, never beyond its size', () => {
    expect(giveBackToBucket({ tokens: 3, at: 0 }, 2, 0, LIMITS)).toEqual({ tokens: 5, at: 0 });
    expect(giveBackToBucket({ tokens: 9, at: 0 }, 5, 0, LIMITS)).toEqual({ tokens: 10, at: 0 });
  });

  it('splits rate and size over shards, and orders a claimant’s shards starting at its own', () => {
    expect(shardLimits({ perSecond: 2, burst: 100, shards: 4 })).toEqual({ perSecond: 0.5, burst: 25 });
    const order = shardOrder('aws:1:eu-central-1:kube-1/workers', 4);
    expect([...order].sort()).toEqual([0, 1, 2, 3]);
    expect(order[1]).toBe((order[0]! + 1) % 4);
    expect(shardOrder('x', 1)).toEqual([0]);
  });

  it('checks launch times against a bucket: every window holds at most burst + rate × its length', () => {
    const steady = Array.from({ length: 30 }, (_, i) => i * 500); // 2 per second
    expect(withinBucket(steady, LIMITS).ok).toBe(true);
    const burst = [...Array(10).fill(0), ...steady.map((t) => t + 500)];
    expect(withinBucket(burst, LIMITS).ok).toBe(true);
    expect(withinBucket([...burst, 500], LIMITS)).toMatchObject({ ok: false });
    expect(withinBucket([], LIMITS).ok).toBe(true);
  });
});
