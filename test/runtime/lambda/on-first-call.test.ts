// onFirstCall: a port whose AWS part loads at its first method call (runtime/lambda/ports/on-first-call.ts).
import { onFirstCall } from '../../../lambdas/runtime/lambda/ports/on-first-call';

interface Pools {
  getPool(name: string): Promise<string>;
  scale(name: string, size: number): Promise<void>;
}

describe('onFirstCall', () => {
  it('loads nothing until a method is called, then once, and passes calls and answers through', async () => {
    let loads = 0;
    const scaled: string[] = [];
    const pools = onFirstCall<Pools>(async () => {
      loads++;
      return {
        getPool: async (name) => `pool ${name}`,
        scale: async (name, size) => {
          scaled.push(`${name}=${size}`);
        },
      };
    });
    expect(loads).toBe(0);
    // a port handed around or awaited is not a thenable and loads nothing
    expect(await Promise.resolve(pools)).toBe(pools);
    expect(loads).toBe(0);

    expect(await Promise.all([pools.getPool('a'), pools.getPool('b')])).toEqual(['pool a', 'pool b']);
    await pools.scale('a', 3);

    expect(loads).toBe(1);
    expect(scaled).toEqual(['a=3']);
  });

  it('passes a failed load on to the call, and loads again at the next call', async () => {
    let attempt = 0;
    const pools = onFirstCall<Pools>(async () => {
      attempt++;
      if (attempt === 1) throw new Error('credentials not ready');
      return { getPool: async () => 'loaded', scale: async () => undefined };
    });
    await expect(pools.getPool('a')).rejects.toThrow('credentials not ready');
    expect(await pools.getPool('a')).toBe('loaded');
    expect(attempt).toBe(2);
  });

  it('passes the method’s own errors on without loading again', async () => {
    let loads = 0;
    const pools = onFirstCall<Pools>(async () => {
      loads++;
      return {
        getPool: async () => {
          throw new Error('throttled');
        },
        scale: async () => undefined,
      };
    });
    await expect(pools.getPool('a')).rejects.toThrow('throttled');
    await pools.scale('a', 1);
    expect(loads).toBe(1);
  });
});
