// Auto Scaling throttles a roll's calls that launch (UpdateAutoScalingGroup to scale out, TerminateInstanceInAuto-
// ScalingGroup without decrement), more often in a row than the state machine's own Retry allows (6 attempts): the
// roll step retries each with back-off, counts it, and when it stays throttled backs off to the next step instead of
// failing. The whole cluster-update execution succeeds, every node replaced, the throttles counted in the pool's
// progress.
import { WORKERS, oneAccountFleet, targetOf } from './support/one-account-fleet';

describe('a roll whose Auto Scaling calls AWS throttles', () => {
  it('retries them with back-off and counts them; the update succeeds', async () => {
    const fleet = await oneAccountFleet({ clusters: 1, scenario: { seed: 5 } });
    try {
      const { sim } = fleet;
      expect((await fleet.updateAll('create')).map((r) => r.status)).toEqual(['SUCCEEDED']);
      fleet.newWorkerImage();
      sim.world.addFaults({
        apiErrors: [
          { on: 'pools.scale', error: 'throttle', times: 8 },
          { on: 'pools.terminate', error: 'throttle', times: 8 },
        ],
      });

      const [rolled] = await fleet.updateAll('roll');

      expect(rolled!.status).toBe('SUCCEEDED');
      const run = await sim.progress.getRun(fleet.ids[0]!, targetOf(rolled!));
      expect(run!.pools.workers).toMatchObject({ replaced: WORKERS, total: WORKERS, scalingThrottled: 16 });
      expect(sim.world.invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
    } finally {
      fleet.dispose();
    }
  });
});
