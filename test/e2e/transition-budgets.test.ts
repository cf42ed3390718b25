// What waiting costs, counted over the simulated world with the deployed ASL (the scenarios of `npm run bench`,
// bench/simulation-scenarios.ts): state transitions and history events are exact, the simulation is seeded, so these
// counts are deterministic; no wall time is measured.
import { clusterLife, longDrain, type ClusterLife, type LongDrain } from '../../bench/simulation-scenarios';

const ROLL_STATES = ['RollMasterPools', 'RollWorkerPools', 'StartMasterPoolRollout', 'StartWorkerPoolRollout'];

describe('state transitions of waiting', () => {
  let awsLike: ClusterLife;
  let simulator: ClusterLife;
  let drain: LongDrain;

  beforeAll(async () => {
    awsLike = await clusterLife('aws-like', 10);
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
      expect(life.configChange.transitions).toBeLessThanOrEqual(25);
      expect(ROLL_STATES.filter((state) => life.configChange.entered[state])).toEqual([]);
    }
  });

  it('replaces 50 nodes (pods on every node, PDBs, a StatefulSet with volumes) at ≤ 3 transitions per node', () => {
    const { roll, configChange } = simulator;
    expect(roll.replaced).toBe(50);
    expect((roll.transitions - configChange.transitions) / roll.replaced).toBeLessThanOrEqual(3);
    expect(roll.maxHistoryEvents).toBeLessThan(20_000);
  });

  it('backs off a 14 h PDB-blocked drain to ≤ 300 transitions, still reporting the block, noticing its end', () => {
    const blocked = drain.roll.rollSteps.filter((s) => s.blockedBy);
    expect(drain.blockedSeconds).toBeGreaterThan(13 * 3600);
    expect(drain.roll.transitions).toBeLessThanOrEqual(300);
    // the checks while blocked: about log2(15 min / 10 s) ≈ 7 to reach the back-off cap, then one per 15 min
    expect(blocked.length).toBeLessThanOrEqual(7 + Math.ceil(drain.blockedSeconds / 900));
    expect(blocked.every((s) => s.blockedBy!.startsWith('PDB default/app allows 0 disruption(s)'))).toBe(true);
    // the lift is seen at the next check, at most one cap later; it evicts, the block changes (the other pod now
    // waits for its sibling), so the back-off starts again from the poll interval
    const after = drain.roll.rollSteps.filter((s) => s.at >= drain.liftedAt);
    expect(after[0]!.at - drain.liftedAt).toBeLessThanOrEqual(900_000);
    expect(after[1]!.at - after[0]!.at).toBeLessThanOrEqual(60_000);
    expect(drain.roll.replaced).toBe(2);
  });
});
