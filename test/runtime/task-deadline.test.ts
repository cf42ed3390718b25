import { lambdaDeadline, localDeadline, safetyMarginMs } from '../../lambdas/runtime/task-deadline';

describe('task deadlines', () => {
  it('keep back a quarter of the timeout, at least 10 s', () => {
    expect(safetyMarginMs({ lambda: { timeoutSeconds: 120 } })).toBe(30_000);
    expect(safetyMarginMs({})).toBe(15_000);
    expect(safetyMarginMs({ lambda: { timeoutSeconds: 20 } })).toBe(10_000);
  });

  it('in Lambda: out of time when less than the margin remains', () => {
    let remaining = 60_000;
    const context = lambdaDeadline({}, () => remaining);
    const before = context.outOfTime();
    remaining = 14_999;
    expect([before, context.outOfTime()]).toEqual([false, true]);
  });

  it('locally: the timeout counted from the start of the call, less the margin', () => {
    let now = 1_000_000;
    const context = localDeadline({ lambda: { timeoutSeconds: 120 } }, () => now);
    now += 89_999;
    const before = context.outOfTime();
    now += 1;
    expect([before, context.outOfTime()]).toEqual([false, true]);
  });
});
