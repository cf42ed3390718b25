// How long a roll step sleeps (rollWaitSeconds): until the awaited thing can have happened, no margin.
import type { RollPlan } from '../../../lambdas/core/rollout/plan-roll-step';
import { noActions, rollWaitSeconds, type RollActions } from '../../../lambdas/core/rollout/roll-step-report';
import { NOW, fresh, old, policy, poolNode, progress, snapshot } from './roll-fixtures';

const PLAN: RollPlan = { done: false, mark: [], cordon: [], drain: [] };
const BOOT_MS = 90_000;

function acted(extra: Partial<RollActions> = {}): RollActions {
  return { ...noActions(progress(3, { bootEstimateMs: BOOT_MS })), ...extra };
}

/** A replacement launched `secondsAgo`, not Ready; registered as a Node `registeredSecondsAgo` when given. */
function booting(secondsAgo: number, registeredSecondsAgo?: number) {
  const registered = poolNode('i-boot', { ready: false });
  const node =
    registeredSecondsAgo === undefined
      ? poolNode('i-boot', { booting: true })
      : {
          ...registered,
          node: { ...registered.node!, createdAt: new Date(NOW - registeredSecondsAgo * 1000).toISOString() },
        };
  const launches = { 'i-boot': NOW - secondsAgo * 1000 };
  return { nodes: [...old(2), ...fresh(1), node], progress: progress(3, { bootEstimateMs: BOOT_MS, launches }) };
}

describe('rollWaitSeconds', () => {
  it('sleeps until a launched node should have booted, with no margin', () => {
    const { nodes, progress: p } = booting(30);
    expect(rollWaitSeconds(PLAN, acted({ progress: p }), snapshot(nodes), policy(), NOW)).toBe(60);
  });

  it('once the boot is due, backs off by a quarter of the time taken while the node has not registered', () => {
    const { nodes, progress: p } = booting(200);
    expect(rollWaitSeconds(PLAN, acted({ progress: p }), snapshot(nodes), policy(), NOW)).toBe(50);
  });

  it('looks again in 5 s at a node that registered and is not Ready yet, for its first two minutes only', () => {
    const fresh = booting(200, 10);
    expect(rollWaitSeconds(PLAN, acted({ progress: fresh.progress }), snapshot(fresh.nodes), policy(), NOW)).toBe(5);
    const stuck = booting(400, 300);
    expect(rollWaitSeconds(PLAN, acted({ progress: stuck.progress }), snapshot(stuck.nodes), policy(), NOW)).toBe(100);
  });

  it("waits exactly the pods' grace after evicting them, and a second after a termination with a decrement", () => {
    const nodes = [...old(2), ...fresh(3)];
    expect(rollWaitSeconds(PLAN, acted({ terminatingSeconds: 30 }), snapshot(nodes), policy(), NOW)).toBe(30);
    expect(rollWaitSeconds(PLAN, acted({ terminated: 1, replacements: 0 }), snapshot(nodes), policy(), NOW)).toBe(1);
  });

  it("wakes when the plan's wait ends (a disruption budget's window), at most 15 minutes on", () => {
    const nodes = [...old(2), ...fresh(3)];
    const soon = { ...PLAN, wakeAt: NOW + 125_500 };
    expect(rollWaitSeconds(soon, acted(), snapshot(nodes), policy(), NOW)).toBe(126);
    const late = { ...PLAN, wakeAt: NOW + 8 * 3_600_000 };
    expect(rollWaitSeconds(late, acted(), snapshot(nodes), policy(), NOW)).toBe(900);
  });
});
