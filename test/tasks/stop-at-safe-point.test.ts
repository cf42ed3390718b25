// StopAtSafePoint ends an update held: a roll held by an operator or cluster_update_block, or the approval gate
// (pending in a CLI run, rejected, or timed out). Each records the phase, releases the lease, and leaves the controls
// as they are (an abort becomes a pause).
import { stopAtSafePoint } from '../../lambdas/tasks/stop-at-safe-point';
import { fakeEnv, seedRun, testCluster } from '../support/fakes';

const TARGET = 'bbbb#2222';
const REF = { targetVersion: TARGET, holder: 'exec-1' };

async function held(error: { Error: string; Cause?: string }, controls = {}) {
  const cluster = testCluster();
  const env = fakeEnv({ clusters: [cluster] });
  await seedRun(env, cluster, REF);
  await env.progress.putControls(cluster.id, controls);
  const out = await stopAtSafePoint({ clusterId: cluster.id, ...REF }, error, env.ports);
  return {
    out,
    phase: (await env.progress.getRun(cluster.id, TARGET))!.phase,
    lease: await env.progress.getLease(cluster.id),
    controls: await env.progress.getControls(cluster.id),
  };
}

describe('stopAtSafePoint', () => {
  it.each([
    ['ApprovalPendingError', 'AWAITING_APPROVAL', /nothing was changed$/],
    ['UpdateRejectedError', 'REJECTED', /this plan stays rejected/],
    ['States.Timeout', 'APPROVAL_LAPSED', /nobody decided in time/],
    ['UpdateHandedOverError', 'HANDED_OVER', /the next run .* continues from the stored progress$/],
  ])('ends the approval gate %s as %s, lease released, controls untouched', async (name, status, next) => {
    const approval = {
      status: 'PENDING',
      targetVersion: TARGET,
      planDigest: 'd',
      planKey: 'k',
      summary: 's',
      requestedAt: 1,
    };
    const result = await held({ Error: name, Cause: 'plan d …' }, { approval });
    expect(result.out.status).toBe(status);
    expect(result.out.message).toMatch(next);
    expect(result.phase).toBe(`${status}: plan d …`);
    expect(result.lease).toBeUndefined();
    expect(result.controls).toEqual({ approval });
  });

  it('turns an abort into a pause by the same person, for the same reason', async () => {
    const result = await held(
      { Error: 'UpdateHeldError', Cause: 'default-worker: 1/2' },
      { abortRequested: true, reason: 'bad AMI', by: 'ana@laptop' },
    );
    expect(result.out.status).toBe('ABORTED');
    expect(result.controls).toEqual({ paused: true, reason: 'aborted: bad AMI', by: 'ana@laptop' });
    expect(result.lease).toBeUndefined();
  });
});
