// The surge against the account's On-Demand vCPU quotas in a rehearsal's report: known limits give the headroom and a
// verdict, unknown ones say why, and both show in the text `clm plan --rehearse` prints.
import { summarise, type RunObservation } from '../../../lambdas/core/rehearsal/rehearsal-report';
import { learnedTimings } from '../../../lambdas/core/rehearsal/learned-timings';
import { formatRehearsal, rehearsalSummary } from '../../../lambdas/core/rehearsal/format-rehearsal';
import type { SnapshotQuota } from '../../../lambdas/core/rehearsal/cluster-snapshot';

const TIMINGS = learnedTimings({ stackUpdates: [], boots: [], readies: [], pods: [] });
const STANDARD = { code: 'L-1216C47A', name: 'Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances' };
const GPU = { code: 'L-DB2E81BA', name: 'Running On-Demand G and VT instances' };

function run(surge: RunObservation['surge']): RunObservation {
  return {
    seed: 1,
    status: 'SUCCEEDED',
    durationSeconds: 1200,
    pools: [],
    pdbBlocks: [],
    forced: [],
    pending: [],
    surge,
    transitions: 40,
  };
}

const SURGE = [
  { pool: 'workers', instances: 3, vcpu: 12, quota: STANDARD.code },
  { pool: 'batch', instances: 3, vcpu: 12, quota: STANDARD.code },
  { pool: 'gpu', instances: 1, vcpu: 8, quota: GPU.code },
];

describe('the surge against the vCPU quotas', () => {
  it('sums the surge per quota and compares it with the headroom: limit less what the account runs', () => {
    // Arrange: 640 standard vCPUs of which 624 in use; the GPU quota could not be read
    const quotas: SnapshotQuota[] = [
      { ...STANDARD, limit: 640, inUse: 624, cluster: 96 },
      { ...GPU, unknown: 'AccessDeniedException: not authorized', inUse: 0, cluster: 0 },
    ];

    // Act
    const report = summarise([run(SURGE)], { timings: TIMINGS, notes: [], quotas });

    // Assert
    expect(report.surge.limits).toEqual([
      { ...STANDARD, needed: 24, limit: 640, inUse: 624, headroom: 16, fits: false },
      { ...GPU, needed: 8, unknown: 'AccessDeniedException: not authorized' },
    ]);
    expect(report.surge.pools).toEqual([
      { pool: 'workers', instances: 3, vcpu: 12 },
      { pool: 'batch', instances: 3, vcpu: 12 },
      { pool: 'gpu', instances: 1, vcpu: 8 },
    ]);
    expect(formatRehearsal(report)).toEqual(
      expect.arrayContaining([
        '  surge: up to 7 extra instance(s), 32 vCPU',
        `    vCPU quota L-1216C47A (${STANDARD.name}): surge needs 24 vCPU; headroom 16 of limit 640 (624 in use): EXCEEDS`,
        `    vCPU quota L-DB2E81BA (${GPU.name}): surge needs 8 vCPU; limit unknown (AccessDeniedException: not authorized)`,
      ]),
    );
    expect(rehearsalSummary(report)).toBe('rehearsed 1x: about 20m, surge EXCEEDS the vCPU quota L-1216C47A');
  });

  it('says fits within the headroom, and gives no verdict without the use', () => {
    const fits = summarise([run(SURGE.slice(0, 1))], {
      timings: TIMINGS,
      notes: [],
      quotas: [{ ...STANDARD, limit: 640, inUse: 100, cluster: 96 }],
    });
    expect(fits.surge.limits).toEqual([{ ...STANDARD, needed: 12, limit: 640, inUse: 100, headroom: 540, fits: true }]);
    const noUse = summarise([run(SURGE.slice(0, 1))], {
      timings: TIMINGS,
      notes: [],
      quotas: [{ ...STANDARD, limit: 640, cluster: 96 }],
    });
    expect(noUse.surge.limits).toEqual([
      { ...STANDARD, needed: 12, limit: 640, unknown: 'the vCPUs the account runs were not read' },
    ]);
    expect(formatRehearsal(noUse)).toContain(
      `    vCPU quota L-1216C47A (${STANDARD.name}): surge needs 12 vCPU; limit 640, use unknown (the vCPUs the account runs were not read)`,
    );
  });

  it('leaves the limits out when no quota was read (a snapshot from before), and says when no run finished', () => {
    const report = summarise([{ ...run(SURGE), status: 'FAILED', error: 'the update did not finish' }], {
      timings: TIMINGS,
      notes: [],
    });
    expect(report.surge.limits).toBeUndefined();
    expect(formatRehearsal(report)[0]).toBe(
      'rehearsal (1 runs in the twin, timings varied): the update did not finish in any run (stopped after 20m)',
    );
  });
});
