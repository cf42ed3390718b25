import { repairRunsAnytime } from '../../../lambdas/core/node-renewal/repair-anytime';

const renew = { kind: 'renew' as const, requestedBy: 'schedule pass', requestedAt: 0 };
const cluster = (poolItems: Record<string, string> = {}) => ({
  id: 'aws:123456789012:eu-central-1:kube-1',
  nodePools: [{ name: 'workers', configItems: poolItems }] as never,
});

describe('repairRunsAnytime', () => {
  it('lets a renewal run skip the window wait when the cluster or a pool repairs outside the windows', () => {
    expect(repairRunsAnytime(renew, cluster(), { node_repair_outside_windows: 'true' })).toBe(true);
    expect(repairRunsAnytime(renew, cluster({ node_repair_outside_windows: 'true' }), {})).toBe(true);
  });

  it('keeps the wait for every other run, and for renewal runs that may not', () => {
    expect(repairRunsAnytime(renew, cluster(), {})).toBe(false);
    expect(repairRunsAnytime(renew, cluster({ node_repair_outside_windows: 'false' }), {})).toBe(false);
    const forced = { ...renew, kind: 'force' as const };
    expect(repairRunsAnytime(forced, cluster(), { node_repair_outside_windows: 'true' })).toBe(false);
    expect(repairRunsAnytime(undefined, cluster(), { node_repair_outside_windows: 'true' })).toBe(false);
  });
});
