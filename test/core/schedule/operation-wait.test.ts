import {
  BACKOFF_MAX_SECONDS,
  BACKOFF_MIN_SECONDS,
  blockedWaitSeconds,
  operationWaitSeconds,
} from '../../../lambdas/core/schedule/operation-wait';

const T0 = Date.parse('2026-11-26T12:00:00Z');
const s = (seconds: number) => seconds * 1000;

/** The checks a poll loop makes until `doneAfter` seconds, sleeping as operationWaitSeconds says. */
function checksUntilDone(expectedSeconds: number, doneAfter: number): number[] {
  const checks: number[] = [];
  let now = T0;
  for (;;) {
    now += s(operationWaitSeconds(T0, s(expectedSeconds), now));
    checks.push((now - T0) / 1000);
    if (now - T0 >= s(doneAfter)) return checks;
  }
}

describe('operationWaitSeconds', () => {
  it('sleeps until the operation should be done, then checks once when it is', () => {
    expect(operationWaitSeconds(T0, s(600), T0)).toBe(600);
    expect(operationWaitSeconds(T0, s(600), T0 + s(450))).toBe(150);
    expect(checksUntilDone(600, 600)).toEqual([600]);
  });

  it('backs off by a quarter of the time taken once the expected time has passed, within 15 s … 5 min', () => {
    expect(operationWaitSeconds(T0, s(600), T0 + s(600))).toBe(150);
    expect(operationWaitSeconds(T0, s(10), T0 + s(20))).toBe(BACKOFF_MIN_SECONDS);
    expect(operationWaitSeconds(T0, s(600), T0 + s(3 * 3600))).toBe(BACKOFF_MAX_SECONDS);
    // an operation twice as long as expected costs three more checks, the last at most a quarter late
    expect(checksUntilDone(600, 1200)).toEqual([600, 750, 938, 1173, 1467]);
  });

  it('costs a number of checks that grows with the logarithm of the overrun until the 5-minute cap', () => {
    const checks = (overrun: number) => checksUntilDone(300, 300 * overrun).length;
    expect([2, 4, 8].map(checks)).toEqual([5, 8, 12]);
  });
});

describe('blockedWaitSeconds', () => {
  /** Checks of a block lasting `hours`, each sleeping as blockedWaitSeconds says (10 s … 15 min). */
  function checksOfBlock(hours: number, wakeAt?: number): number[] {
    const times: number[] = [];
    let now = T0;
    while (now < T0 + hours * 3_600_000) {
      now += s(blockedWaitSeconds(T0, now, { minSeconds: 10, maxSeconds: 900, ...(wakeAt ? { wakeAt } : {}) }));
      times.push((now - T0) / 1000);
    }
    return times;
  }

  it('doubles the interval while the same block lasts, from the poll interval to the cap', () => {
    expect(checksOfBlock(1).slice(0, 8)).toEqual([10, 20, 40, 80, 160, 320, 640, 1280]);
    expect(blockedWaitSeconds(T0, T0 + s(5000), { minSeconds: 10, maxSeconds: 900 })).toBe(900);
  });

  it('checks a 14 h block about 60 times (≤ 100 polls, 300 transitions), against 5,040 at a 10 s poll', () => {
    const checks = checksOfBlock(14).length;
    expect(checks).toBeLessThanOrEqual(100);
    expect(checks).toBe(63);
    // until the cap the checks grow with the logarithm of the block's length
    expect([60, 600].map((seconds) => checksOfBlock(seconds / 3600).length)).toEqual([4, 7]);
  });

  it('never sleeps past the moment the task would act differently (a forced eviction)', () => {
    const wakeAt = T0 + s(3000);
    expect(blockedWaitSeconds(T0, T0 + s(2900), { minSeconds: 10, maxSeconds: 900, wakeAt })).toBe(100);
    expect(checksOfBlock(1, wakeAt)).toContain(3000);
  });
});
