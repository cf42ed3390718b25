import {
  withCommentId,
  withSection,
  type PullRequestCommentRecord,
} from '../../../lambdas/core/forge/pr-comment-record';

const PR = { repository: 'acme/config', number: 7, head: 'h1', base: 'main', clusters: ['a', 'b'] };
const claim = (by: string, now = 1000) => ({ by, now, staleAfterMs: 120_000 });
const record = (change: ReturnType<typeof withSection>) => {
  if (change.superseded) throw new Error('superseded');
  return { ...change.record, version: change.record.version + 1 };
};

describe('withSection', () => {
  it('lets the first report claim creating the comment and the next wait for it; a created comment needs no claim', () => {
    const first = withSection(undefined, PR, 'a', { state: 'running' }, claim('r1'));
    const second = withSection(record(first), PR, 'b', { state: 'running' }, claim('r2'));
    const created = withCommentId(record(second), 42);
    const third = withSection(created, PR, 'a', { state: 'planned', planKey: 'k' }, claim('r3'));

    expect(first).toMatchObject({ creates: true, record: { creating: { by: 'r1', since: 1000 }, version: 0 } });
    expect(second).toMatchObject({ creates: false, record: { creating: { by: 'r1' }, version: 1 } });
    expect(second.superseded || second.record.sections).toEqual({ a: { state: 'running' }, b: { state: 'running' } });
    expect(created.creating).toBeUndefined();
    expect(third).toMatchObject({
      creates: false,
      record: { commentId: 42, sections: { a: { state: 'planned', planKey: 'k' } } },
    });
  });

  it('gives the claim to a retry of its own report, and to anyone once it is stale', () => {
    const claimed = record(withSection(undefined, PR, 'a', { state: 'running' }, claim('r1', 1000)));
    expect(withSection(claimed, PR, 'a', { state: 'running' }, claim('r1', 2000))).toMatchObject({ creates: true });
    expect(withSection(claimed, PR, 'b', { state: 'running' }, claim('r2', 120_999))).toMatchObject({ creates: false });
    expect(withSection(claimed, PR, 'b', { state: 'running' }, claim('r2', 121_000))).toMatchObject({
      creates: true,
      record: { creating: { by: 'r2', since: 121_000 } },
    });
  });

  it('starts a later head from no sections and ignores the earlier head from then on', () => {
    const old: PullRequestCommentRecord = withCommentId(
      record(withSection(undefined, PR, 'a', { state: 'failed', reason: 'x' }, claim('r1'))),
      42,
    );
    const pushed = record(withSection(old, { ...PR, head: 'h2' }, 'b', { state: 'running' }, claim('r2')));

    expect(pushed).toMatchObject({
      head: 'h2',
      supersededHeads: ['h1'],
      sections: { b: { state: 'running' } },
      commentId: 42,
    });
    expect(Object.keys(pushed.sections)).toEqual(['b']);
    expect(withSection(pushed, PR, 'a', { state: 'running' }, claim('r3'))).toEqual({ superseded: true });
  });
});
