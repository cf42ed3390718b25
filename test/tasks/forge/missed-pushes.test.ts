// Missed pushes: the scheduled pass lists each git source's heads (one request per source, as `git ls-remote`),
// compares them with the commits recorded (by webhooks, or the last pass), and dispatches what no webhook announced.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitSource } from '../../../lambdas/adapters/config-source/git-source';
import { factoriesOf, restrictPorts } from '../../../lambdas/runtime/restrict-ports';
import { runTask } from '../../../lambdas/runtime/run-task';
import { findTask } from '../../../lambdas/tasks/catalogue';
import type { AnyTask } from '../../../lambdas/tasks/define-task';
import { COMMIT_A, COMMIT_B, fleetCluster, settings } from '../../core/dispatch/fleet-fixtures';
import { FleetWorld } from '../../support/fleet/fleet-world';
import { createBareRepo, startGitServer } from '../../support/git-server';

function world() {
  const w = new FleetWorld(
    [fleetCluster('test-1', 'test', { current: COMMIT_A }), fleetCluster('test-2', 'test', { current: COMMIT_A })],
    settings(),
  );
  w.refs.set('main', COMMIT_A);
  const task = findTask('DispatchFleet') as AnyTask;
  const pass = (input: unknown) =>
    runTask(task, input, restrictPorts(task.name, task.ports, factoriesOf(w.ports))) as Promise<any>;
  return { w, pass };
}

describe('missed pushes', () => {
  it('a push whose webhook was lost is caught and dispatched by the next scheduled pass', async () => {
    // Arrange: the first pass records main at A; then main moves to B and no webhook arrives
    const { w, pass } = world();
    const first = await pass({ trigger: 'schedule' });
    w.refs.set('main', COMMIT_B);
    const listingsBefore = w.headListings;

    // Act
    const next = await pass({ trigger: 'schedule' });

    // Assert
    expect(first.missedPushes).toBeUndefined();
    expect(first.starts).toEqual([]);
    expect(next.missedPushes).toEqual([
      { source: 'main', ref: 'refs/heads/main', commit: COMMIT_B, previous: COMMIT_A },
    ]);
    expect(next.starts.map((s: { clusterId: string; how: string }) => [s.clusterId.split(':').at(-1), s.how])).toEqual([
      ['test-1', 'started'],
      ['test-2', 'started'],
    ]);
    expect(w.headListings - listingsBefore).toBe(1); // one listing for the source, whatever the fleet's size
    expect(await w.store.getCommit('main', 'refs/heads/main')).toMatchObject({
      commit: COMMIT_B,
      deliveryId: 'ls-remote',
    });
  });

  it('a push a webhook delivered is not reported missed', async () => {
    const { w, pass } = world();
    await pass({ trigger: 'schedule' });
    w.refs.set('main', COMMIT_B);
    const at = w.clock.now();
    const recorded = {
      source: 'main',
      ref: 'refs/heads/main',
      commit: COMMIT_B,
      deleted: false,
      pushedAt: at,
      deliveryId: 'd-1',
      recordedAt: at,
    };
    expect(await w.store.recordCommit(recorded)).toBe(true);

    const next = await pass({ trigger: 'schedule' });

    expect(next.missedPushes).toBeUndefined();
    expect(next.starts).toHaveLength(2); // the push's pass may have been lost too: the whole fleet is judged
  });
});

describe('GitSource.listHeads', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'clm-heads-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists branch and tag heads (annotated tags peeled) with one request to a smart-HTTP server, fetching nothing', async () => {
    // Arrange
    const repo = createBareRepo(root, 'config');
    const first = repo.commit({ 'cluster/cluster.yaml': 'v: 1\n' }, 'first');
    repo.tag('v1', { annotated: true });
    const second = repo.commit({ 'cluster/cluster.yaml': 'v: 2\n' }, 'second', 'stable');
    const server = await startGitServer({ projectRoot: root, token: 'tok' });
    const workdir = mkdtempSync(join(tmpdir(), 'clm-heads-work-'));
    try {
      const source = new GitSource({ name: 'main', url: `${server.url}/config.git`, token: 'tok', workdir });

      // Act
      const heads = await source.listHeads();
      const local = await new GitSource({ name: 'local', url: `file://${repo.bareDir}` }).listHeads();

      // Assert
      expect(Object.fromEntries(heads)).toEqual({
        'refs/heads/main': first,
        'refs/heads/stable': second,
        'refs/tags/v1': first,
      });
      expect(Object.fromEntries(local)).toEqual(Object.fromEntries(heads));
      expect(server.requests.map((r) => [r.method, r.path, r.status])).toEqual([['GET', '/config.git/info/refs', 200]]);
    } finally {
      await server.close();
      rmSync(workdir, { recursive: true, force: true });
    }
  });
});
