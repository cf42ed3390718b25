import { withPollCount } from '../../lambdas/runtime/poll-count';

describe('withPollCount ($.step.polls)', () => {
  const poll = { status: 'IN_PROGRESS', waitSeconds: 30, message: 'stack creating' };

  it('counts a poll one more than the $.step it received, the first as 1', () => {
    expect(withPollCount({ state: {} }, poll)).toEqual({ ...poll, polls: 1 });
    expect(withPollCount({ state: { step: { ...poll, polls: 41 } } }, poll)).toEqual({ ...poll, polls: 42 });
  });

  it('leaves outputs that are no poll as they are', () => {
    const render = { artifactKey: 'k', message: 'rendered', approvalRequired: false };
    expect(withPollCount({ state: { step: { polls: 3 } } }, render)).toBe(render);
    expect(withPollCount({}, undefined)).toBeUndefined();
  });
});
