import { FLEET_PAGE_KEY } from '../../../lambdas/core/fleet-page/fleet-page-object';
import { dispatchFleet } from '../../../lambdas/tasks/dispatch-fleet';
import { COMMIT_A, COMMIT_B, fleetCluster } from '../../core/dispatch/fleet-fixtures';
import { FleetWorld } from '../../support/fleet/fleet-world';

const ENDED = { trigger: 'execution', execution: { name: 'ended-elsewhere', status: 'SUCCEEDED' } } as const;

/** Each cluster card's state on the page (`data-cluster` → its `state-…` class). */
function cardStates(html: string): Record<string, string> {
  const cards = [...html.matchAll(/<article class="card state-([a-z-]+)" data-cluster="([^"]+)">/g)];
  return Object.fromEntries(cards.map(([, state, id]) => [id!, state!]));
}

function fleet(): FleetWorld {
  const world = new FleetWorld([
    fleetCluster('kube-1', 'test', { current: COMMIT_A }),
    fleetCluster('kube-2', 'test', { current: COMMIT_A }),
    fleetCluster('prod-1', 'production', { current: COMMIT_A }),
  ]);
  world.refs.set('main', COMMIT_B);
  return world;
}

const id = (name: string) => `aws:123456789012:eu-central-1:${name}`;

describe('the fleet page the dispatcher publishes', () => {
  it('is rewritten by each pass as the pass left the fleet: one HTML object in the artefact bucket', async () => {
    const world = fleet();

    const first = await dispatchFleet(ENDED, world.ports);

    expect(first.fleetPage).toEqual({ written: FLEET_PAGE_KEY });
    expect(world.artifacts.contentTypes.get(FLEET_PAGE_KEY)).toBe('text/html; charset=utf-8');
    const page = world.artifacts.objects.get(FLEET_PAGE_KEY)!;
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).not.toMatch(/<script|<link|src=|url\(/);
    expect(cardStates(page)).toEqual({
      [id('kube-1')]: 'running',
      [id('kube-2')]: 'running',
      [id('prod-1')]: 'pending',
    });
    expect(page).toContain(`${COMMIT_B}#`);

    await world.finishRunning();
    const second = await dispatchFleet(ENDED, world.ports);

    expect(second.fleetPage).toEqual({ written: FLEET_PAGE_KEY });
    expect(second.starts.map((s) => s.clusterId)).toEqual([id('prod-1')]);
    expect(cardStates(world.artifacts.objects.get(FLEET_PAGE_KEY)!)).toEqual({
      [id('kube-1')]: 'up-to-date',
      [id('kube-2')]: 'up-to-date',
      [id('prod-1')]: 'running',
    });
  });

  it('keeps the pass when the page cannot be written, and says why in its report', async () => {
    const world = fleet();
    world.artifacts.put = async () => {
      throw new Error('S3 PutObject s3://clm/fleet/index.html: AccessDenied');
    };

    const report = await dispatchFleet(ENDED, world.ports);

    expect(report.fleetPage).toEqual({ failed: 'S3 PutObject s3://clm/fleet/index.html: AccessDenied' });
    expect(report.starts.map((s) => s.clusterId).sort()).toEqual([id('kube-1'), id('kube-2')]);
    expect(world.executions.running()).toHaveLength(2);
  });
});
