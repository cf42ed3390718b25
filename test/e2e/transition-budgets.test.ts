// What waiting costs, counted over the simulated world with the deployed ASL (the scenarios of `npm run bench`,
// bench/simulation-scenarios.ts): state transitions and history events are exact, the simulation is seeded, so these
// counts are deterministic; no wall time is measured.
import { clusterLife, longDrain, type ClusterLife, type LongDrain } from '../../bench/simulation-scenarios';

const ROLL_STATES = ['RollMasterPools', 'RollWorkerPools', 'StartMasterPoolRollout', 'StartWorkerPoolRollout'];

describe('state transitions of waiting', () => {
  let awsLike: ClusterLife;
  let simulator: ClusterLife;
  let drain: LongDrain;
  let small: ClusterLife;

  beforeAll(async () => {
    awsLike = await clusterLife('aws-like', 10);
    small = await clusterLife('simulator', 10);
    simulator = await clusterLife('simulator', 50);
    drain = await longDrain();
  });

  it('creates a cluster with AWS-like timings (10 min stack create, 5 min update, 3 min boot) in ≤ 60 transitions', () => {
    expect(awsLike.create.status).toBe('SUCCEEDED');
    expect(awsLike.create.transitions).toBeLessThanOrEqual(60);
    // one check per stack stage when it should be done, one more for the API server: no 15-s polling
    expect(awsLike.create.polls).toBeLessThanOrEqual(5);
  });

  it('creates a cluster with the simulator timings in ≤ 40 transitions', () => {
    expect(simulator.create.transitions).toBeLessThanOrEqual(40);
  });

  it('applies a config change that replaces no node in ≤ 25 transitions, without a Map or child for the pools', () => {
    for (const life of [awsLike, simulator]) {
      expect(life.configChange.replaced).toBe(0);
      // DESIGN.md §8's 25, the health check included (in PostApplyDeletions, the rollout waited for in process)
      expect(life.configChange.transitions).toBeLessThanOrEqual(25);
      expect(life.configChange.entered.CheckWorkloadHealth).toBeUndefined();
      expect(ROLL_STATES.filter((state) => life.configChange.entered[state])).toEqual([]);
    }
  });

  it('replaces 50 nodes (pods on every node, PDBs, a StatefulSet with volumes) at ≤ 3 transitions per node', () => {
    const { roll, configChange } = simulator;
    expect(roll.replaced).toBe(50);
    expect((roll.transitions - configChange.transitions) / roll.replaced).toBeLessThanOrEqual(3);
    expect(roll.maxHistoryEvents).toBeLessThan(20_000);
  });

  it('replaces 10 nodes at ≤ 3 transitions per node with either timings: short waits are slept in the step', () => {
    for (const life of [small, awsLike]) {
      const { roll, configChange } = life;
      expect(roll.replaced).toBe(10);
      expect((roll.transitions - configChange.transitions) / roll.replaced).toBeLessThanOrEqual(3);
      // a Wait state only for the boots: one per batch of surge 3
      expect(roll.entered.WaitForNodes).toBeLessThanOrEqual(Math.ceil(10 / 3));
    }
  });

  it('waits out a 14 h PDB-blocked drain in ≤ 300 transitions, reporting the block, acting on its end within a poll', () => {
    const blocked = drain.roll.rollSteps.filter((s) => s.blockedBy);
    expect(drain.blockedSeconds).toBeGreaterThan(13 * 3600);
    expect(drain.roll.transitions).toBeLessThanOrEqual(300);
    // every blocked step waits in process up to 10 min (two transitions, no Wait state): one step per 10 minutes
    expect(blocked.length).toBeLessThanOrEqual(2 + Math.ceil(drain.blockedSeconds / 600));
    expect(drain.roll.entered.WaitForNodes ?? 0).toBeLessThanOrEqual(10);
    expect(blocked.every((s) => s.blockedBy!.startsWith('PDB default/app allows 0 disruption(s)'))).toBe(true);
    // the waits are the whole block, each at most 10 min
    const waited = blocked.map((s) => s.waitedSeconds ?? 0);
    expect(Math.max(...waited)).toBeLessThanOrEqual(600);
    expect(waited.reduce((a, b) => a + b, 0)).toBeGreaterThan(drain.blockedSeconds - 600);
    // the lift is seen at the next look of the wait (drain_poll_interval 30 s in the examples' config), and the
    // step evicts then, in the same invocation
    expect(drain.roll.evictions.filter((at) => at < drain.liftedAt)).toEqual([]);
    expect(drain.roll.evictions[0]! - drain.liftedAt).toBeLessThanOrEqual(30_000);
    expect(drain.roll.replaced).toBe(2);
  });
});
