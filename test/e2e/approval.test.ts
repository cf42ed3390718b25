// The approval gate (update_requires_approval) end to end in the simulator: an update plans itself after rendering
// and stops before its first write until the plan is approved (a CLI run ends held, exit 3); `clm approve` lets the
// next run go on; a new target version asks again (the approval lapses); `clm reject` keeps that plan from running.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashValue } from '../../lambdas/sim/hash';
import type { WorldState } from '../../lambdas/sim/world-state';
import {
  ROOT,
  TEST,
  clm,
  configWithNewImage,
  loadProgress,
  loadWorld,
  poolInstances,
  tempDir,
} from './support/clm-session';

const SLOW = 240_000;
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** examples/clusters.yaml with kube-test's updates waiting for approval. */
const WITH_APPROVAL = readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8').replace(
  '      team: platform\n      cost_center: "1001"\n',
  '      team: platform\n      cost_center: "1001"\n      update_requires_approval: "true"\n',
);

function stateHash(snapshot: WorldState): string {
  const { apiCalls: _calls, ...world } = snapshot;
  return hashValue(world);
}

describe('update_requires_approval', () => {
  it(
    'waits for the plan to be approved, asks again for a new version, and never runs a rejected plan',
    async () => {
      // Arrange: kube-test created without approval, then the item added
      expect(WITH_APPROVAL).toContain('update_requires_approval');
      const state = tempDir('approval');
      temps.push(state);
      const registry = join(state, 'clusters.yaml');
      writeFileSync(registry, readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8'));
      const provision = (config: string) =>
        clm([
          'provision',
          '--simulate',
          '--registry',
          registry,
          '--directory',
          config,
          '--state',
          state,
          '--cluster',
          TEST,
        ]);
      expect((await provision('examples/config')).code).toBe(0);
      writeFileSync(registry, WITH_APPROVAL);
      const newImage = configWithNewImage();
      temps.push(newImage);
      const old = poolInstances(loadWorld(state), TEST)['default-worker']!.alive;
      const before = stateHash(loadWorld(state).snapshot());

      // Act 1: the update stops at the gate
      const held = await provision(newImage);

      // Assert 1: held (exit 3), nothing written, the plan named by clm status
      expect(held.code).toBe(3);
      expect(held.out).toMatch(/awaits approval: clm approve/);
      expect(stateHash(loadWorld(state).snapshot())).toBe(before);
      const pending = loadProgress(state).controls[TEST]!.approval!;
      expect(pending).toEqual(
        expect.objectContaining({ status: 'PENDING', summary: expect.stringMatching(/node replacement/) }),
      );
      // ...with how the roll went in a twin of the cluster, beside the plan
      expect(pending.rehearsal).toMatch(/^rehearsed 5x: about \d+m/);
      expect(held.out).toContain(pending.rehearsal);
      const status = await clm(['status', '--registry', registry, '--state', state]);
      expect(status.out).toContain(`plan ${pending.planDigest}`);
      expect(status.out).toContain('awaits approval');

      // Act 2: approving another plan is refused; approving this one lets the next run go on
      const wrong = await clm(['approve', TEST, '--state', state, '--plan', 'ffffffffffffffff']);
      const approved = await clm([
        'approve',
        TEST,
        '--state',
        state,
        '--plan',
        pending.planDigest,
        '--reason',
        'CAB-7',
      ]);
      const resumed = await provision(newImage);

      // Assert 2
      expect(wrong.code).toBe(2);
      expect(wrong.err).toContain(`the pending plan is ${pending.planDigest}`);
      expect(approved.code).toBe(0);
      expect(approved.out).toContain('approved; run the update again');
      expect(approved.out).toContain(pending.rehearsal);
      expect(resumed.code).toBe(0);
      const rolled = poolInstances(loadWorld(state), TEST)['default-worker']!;
      expect(rolled.gone.filter((id) => old.includes(id)).sort()).toEqual([...old].sort());

      // Act 3: a new version asks again; rejected, it never runs
      const newer = configWithNewImage(['worker-default'], 'ami-0feedface0002');
      temps.push(newer);
      const asked = await provision(newer);
      const reject = await clm(['reject', TEST, '--state', state, '--reason', 'not this week']);
      const afterReject = stateHash(loadWorld(state).snapshot());
      const rejected = await provision(newer);

      // Assert 3
      expect(asked.code).toBe(3);
      const second = loadProgress(state).controls[TEST]!.approval!;
      expect(second.planDigest).not.toBe(pending.planDigest);
      expect(second.status).toBe('REJECTED');
      expect(reject.code).toBe(0);
      expect(rejected.code).toBe(3);
      expect(rejected.out).toMatch(/rejected by .*: not this week/);
      expect(stateHash(loadWorld(state).snapshot())).toBe(afterReject);
    },
    SLOW,
  );
});
