import { createHmac } from 'node:crypto';
import { ForgeWebhookVerifier } from '../../../lambdas/adapters/webhook/forge-webhook-verifier';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { FleetWorld } from '../../support/fleet/fleet-world';
import { headers, pushPayload } from '../webhook/payloads';
import { COMMIT_A, COMMIT_B, fleetCluster, settings } from './fleet-fixtures';

// The README's event-driven demo: a second push lands while the first one's wave runs. The running executions resolve
// the channel when they start, so they take their clusters to the newer commit; the dispatcher must count that as the
// success it is — no ClusterUpdateFailed NoProgress, no lasting problem on a cluster that is current.
const COMMIT_C = 'c'.repeat(40);
const SECRET = 'whsec-push-during-wave';

function push(delivery: string, after: string, before: string) {
  const repository = { ...(pushPayload().repository as object), full_name: 'acme/cluster-config' };
  const body = JSON.stringify(pushPayload({ before, after, repository, head_commit: null, commits: [] }));
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  return { method: 'POST', headers: headers('push', delivery, signature), body };
}

function fleet(): Cluster[] {
  return [
    ...Array.from({ length: 3 }, (_, i) => fleetCluster(`test-${i}`, 'test', { current: COMMIT_A })),
    ...Array.from({ length: 2 }, (_, i) => fleetCluster(`prod-${i}`, 'production', { current: COMMIT_A })),
  ];
}

describe('a push that lands while a wave runs', () => {
  it('is picked up by the running executions, which the dispatcher counts as succeeded', async () => {
    // Arrange: B is pushed and the test wave starts at B
    const world = new FleetWorld(
      fleet(),
      settings({ maxConcurrent: 10 }),
      new ForgeWebhookVerifier({ github: [SECRET], gitlab: [], bitbucket: [] }),
    );
    world.refs.set('main', COMMIT_B);
    await world.receive(push('delivery-b', COMMIT_B, COMMIT_A));
    const wave = world.executions.running();
    expect(wave.length).toBeGreaterThan(0);

    // Act: C lands while they run; they end at C (their Prepare resolved the channel then), and the passes go on
    world.refs.set('main', COMMIT_C);
    await world.receive(push('delivery-c', COMMIT_C, COMMIT_B));
    for (let i = 0; i < 10; i++) {
      await world.finishRunning();
      world.clock.advance(5 * 60_000);
      await world.pass();
    }

    // Assert
    const failed = world.events.events.filter((e) => e.type === 'ClusterUpdateFailed');
    expect(failed.map((e) => `${String(e.detail.clusterId)}: ${String(e.detail.error)}`)).toEqual([]);
    expect(world.problems).toEqual([]);
    expect(world.clusters.map((c) => c.status.currentVersion.split('#')[0])).toEqual(
      world.clusters.map(() => expect.stringContaining('c'.repeat(12))),
    );
  });
});
