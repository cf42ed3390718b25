import { configItemChanges } from '../../../lambdas/core/plan/config-item-changes';

describe('configItemChanges', () => {
  it('lists added, removed and changed items by name, encrypted values hidden', () => {
    const changes = configItemChanges(
      { a: '1', gone: 'x', same: 's', secret: 'aws:kms:AAA' },
      { a: '2', added: 'y', same: 's', secret: 'aws:kms:BBB' },
    );
    expect(changes).toEqual([
      { item: 'a', before: '1', after: '2' },
      { item: 'added', after: 'y' },
      { item: 'gone', before: 'x' },
      { item: 'secret', before: '(encrypted value)', after: '(encrypted value)' },
    ]);
  });
});
