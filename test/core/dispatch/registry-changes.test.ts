import { diffRegistry, mergeStates, withStates } from '../../../lambdas/core/dispatch/registry-changes';
import { clusterHash } from '../../../lambdas/core/version/cluster-hash';
import { fleetCluster, state } from './fleet-fixtures';

describe('diffRegistry', () => {
  const a = fleetCluster('a');
  const b = fleetCluster('b');
  const c = fleetCluster('c');

  it('sees every cluster as added on the first poll', () => {
    const diff = diffRegistry([a, b], new Map());
    expect(diff).toMatchObject({ added: [a.id, b.id], modified: [], removed: [], unchanged: 0 });
    expect(diff.states).toEqual([
      { clusterId: a.id, revision: 0, lastSeenHash: clusterHash(a) },
      { clusterId: b.id, revision: 0, lastSeenHash: clusterHash(b) },
    ]);
  });

  it('yields exactly the clusters whose hash changed, and those that left', () => {
    const seen = new Map([
      [a.id, state(a.id, undefined, { lastSeenHash: clusterHash(a) })],
      [b.id, state(b.id, undefined, { lastSeenHash: clusterHash(b) })],
      [c.id, state(c.id, undefined, { lastSeenHash: clusterHash(c) })],
    ]);
    const statusOnly = { ...a, alias: 'renamed', status: { ...a.status, currentVersion: 'x#y' } };
    const resized = { ...b, configItems: { ...b.configItems, node_max_pods: '220' } };
    const d = fleetCluster('d');
    const diff = diffRegistry([statusOnly, resized, d], seen);
    expect(diff).toMatchObject({ added: [d.id], modified: [b.id], removed: [c.id], unchanged: 1 });
    expect([...diff.changed]).toEqual([d.id, b.id]);
    expect(diff.states.find((s) => s.clusterId === b.id)).toEqual({
      clusterId: b.id,
      revision: 1,
      lastSeenHash: clusterHash(resized),
    });
  });

  it('merges state writes, the later list winning, and applies them to a snapshot', () => {
    const merged = mergeStates(
      [state('x', undefined, { lastSeenHash: '1' })],
      [state('x', undefined, { blocked: 'paused@' })],
    );
    expect(merged).toEqual([state('x', undefined, { blocked: 'paused@' })]);
    const snapshot = withStates(new Map([['y', state('y')]]), merged);
    expect([...snapshot.keys()]).toEqual(['y', 'x']);
  });
});
