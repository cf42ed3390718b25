import {
  DEFAULT_STACK_SECONDS,
  expectedStackMs,
  learnStackDurations,
} from '../../../lambdas/core/stacks/stack-durations';

describe('stack durations', () => {
  it('expects the typical AWS durations until a stack has history', () => {
    expect(expectedStackMs('kube-1', 'create')).toBe(DEFAULT_STACK_SECONDS.create * 1000);
    expect(expectedStackMs('kube-1', 'update', { other: { update: 1 } })).toBe(300_000);
    expect(expectedStackMs('kube-1', 'update', { 'kube-1': { create: 61_000, update: 46_000 } })).toBe(46_000);
  });

  it('learns what a finished run observed per operation, keeping what it inherited for the rest', () => {
    const learned = learnStackDurations({
      learnedStackMs: { main: { create: 600_000 }, gone: { update: 5_000 } },
      stacks: {
        main: { status: 'done', startedAt: 0, completedAt: 45_000, operation: 'update' },
        pool: { status: 'done', startedAt: 10, completedAt: 70_010, operation: 'create' },
        same: { status: 'done', startedAt: 0, completedAt: 1, operation: 'update', noChanges: true },
        running: { status: 'deploying', startedAt: 0, operation: 'update' },
        unknown: { status: 'done', startedAt: 0, completedAt: 9 },
      },
    });
    expect(learned).toEqual({
      main: { create: 600_000, update: 45_000 },
      gone: { update: 5_000 },
      pool: { create: 70_000 },
    });
  });
});
