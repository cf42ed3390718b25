// How long a PDB held a drain, kept by the roll (core/rollout/pdb-block-spells.ts) and learned by a rehearsal
// (core/rehearsal/pdb-releases.ts): only PDBs that allow no disruption with every pod healthy, only blocks that ended
// without a forced drain.
import type { PoolProgress, RunRecord } from '../../../lambdas/core/model/run';
import { pdbReleases, releaseNotes, zeroBudgetPdbs } from '../../../lambdas/core/rehearsal/pdb-releases';
import { trackPdbBlocks } from '../../../lambdas/core/rollout/pdb-block-spells';
import type { PdbInfo } from '../../../lambdas/ports/kube-cluster';

const block = (pdb: string, pod: string) => `PDB ${pdb} allows 0 disruption(s) (2/2 healthy) for pod ${pod}`;
const T = 1_000_000;

describe('the spells of a PDB refusing evictions in a roll', () => {
  it('opens a spell when a PDB first blocks, keeps it while it blocks, and ends it at the first step it does not', () => {
    // Act
    const first = trackPdbBlocks(undefined, [block('default/pay', 'default/pay-1')], T);
    const second = trackPdbBlocks(
      first,
      [block('default/pay', 'default/pay-2'), 'pod a/b: eviction refused'],
      T + 60_000,
    );
    const third = trackPdbBlocks(second, [], T + 180_000);

    // Assert
    expect(first).toEqual([{ pdb: 'default/pay', since: T }]);
    expect(second).toEqual([{ pdb: 'default/pay', since: T }]);
    expect(third).toEqual([{ pdb: 'default/pay', since: T, endedAt: T + 180_000 }]);
  });

  it('marks a spell ended by a forced drain, closes open spells when the pool is done, and starts a new spell later', () => {
    const open = trackPdbBlocks(undefined, [block('default/pay', 'default/pay-1')], T);
    const forced = trackPdbBlocks(open, [], T + 1800_000, { forced: true });
    const again = trackPdbBlocks(forced, [block('default/pay', 'default/pay-3')], T + 2000_000);
    const done = trackPdbBlocks(again, [block('default/pay', 'default/pay-3')], T + 2100_000, { done: true });

    expect(forced[0]).toMatchObject({ endedAt: T + 1800_000, forced: true });
    expect(done).toEqual([
      { pdb: 'default/pay', since: T, endedAt: T + 1800_000, forced: true },
      { pdb: 'default/pay', since: T + 2000_000, endedAt: T + 2100_000 },
    ]);
  });
});

const pdb = (name: string, desiredHealthy: number, expectedPods: number): PdbInfo =>
  ({
    namespace: 'default',
    name,
    disruptionsAllowed: 0,
    currentHealthy: expectedPods,
    desiredHealthy,
    expectedPods,
  }) as PdbInfo;

function run(pdbBlocks: PoolProgress['pdbBlocks']): RunRecord {
  return { pools: { workers: { pdbBlocks } } } as unknown as RunRecord;
}

describe('what a rehearsal learns of PDBs that allow no disruption', () => {
  it('takes only the PDBs whose pods can never be disrupted', () => {
    expect(zeroBudgetPdbs([pdb('pay', 2, 2), pdb('web', 2, 3), pdb('empty', 0, 0)]).map((p) => p.name)).toEqual([
      'pay',
    ]);
  });

  it('learns the median of the blocks that ended without a forced drain, over the last runs', () => {
    // Arrange
    const runs = [
      run([
        { pdb: 'default/pay', since: T, endedAt: T + 600_000 },
        { pdb: 'default/web', since: T, endedAt: T + 60_000 },
      ]),
      run([
        { pdb: 'default/pay', since: T, endedAt: T + 900_000 },
        { pdb: 'default/pay', since: T, endedAt: T + 1800_000, forced: true },
        { pdb: 'default/pay', since: T },
      ]),
    ];

    // Act
    const releases = pdbReleases([pdb('pay', 2, 2), pdb('web', 2, 3)], runs);

    // Assert
    expect(releases).toEqual([{ pdb: 'default/pay', seconds: 750, released: 2, forced: 1 }]);
    expect(releaseNotes(releases)[0]).toMatch(
      /default\/pay allows no disruption; .* ended after 12m30s \(median of 2\)/,
    );
  });

  it('knows nothing when every block was forced or there is no history, and says what the twin does then', () => {
    const forcedOnly = [run([{ pdb: 'default/pay', since: T, endedAt: T + 1800_000, forced: true }])];

    const releases = pdbReleases([pdb('pay', 2, 2)], forcedOnly);

    expect(releases).toEqual([{ pdb: 'default/pay', released: 0, forced: 1 }]);
    expect(releaseNotes(releases)[0]).toMatch(
      /no earlier run saw its block end by itself \(1 ended by a forced drain\): the twin forces/,
    );
    expect(pdbReleases([pdb('pay', 2, 2)], [])).toEqual([{ pdb: 'default/pay', released: 0, forced: 0 }]);
  });
});
