import { fieldDiff } from '../../../lambdas/core/plan/field-diff';

describe('fieldDiff', () => {
  it('lists the fields the applied object sets differently, by path, ignoring fields only the server has', () => {
    // Arrange
    const live = {
      metadata: { name: 'web', resourceVersion: '7', labels: { app: 'web' }, managedFields: [{}] },
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
      status: { readyReplicas: 2 },
    };
    const desired = {
      metadata: { name: 'web', labels: { app: 'web', tier: 'front' } },
      spec: { replicas: 3, template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } },
    };

    // Act
    const changes = fieldDiff(live, desired);

    // Assert
    expect(changes).toEqual([
      { path: 'metadata.labels.tier', op: 'add', after: 'front' },
      { path: 'spec.replicas', op: 'change', before: 2, after: 3 },
      { path: 'spec.template.spec.containers[0].image', op: 'change', before: 'nginx:1.27', after: 'nginx:1.28' },
    ]);
  });

  it('compares lists of another length as a whole, and finds nothing when the object is applied already', () => {
    expect(fieldDiff({ args: ['a'] }, { args: ['a', 'b'] })).toEqual([
      { path: 'args', op: 'change', before: ['a'], after: ['a', 'b'] },
    ]);
    expect(fieldDiff({ a: { b: 1 }, c: 2 }, { a: { b: 1 } })).toEqual([]);
  });
});
