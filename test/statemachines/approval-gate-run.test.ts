// The approval gate run locally over fake tasks: AwaitApproval is a `lambda:invoke.waitForTaskToken` state (the local
// runner passes a `local:` token); a decision made between the review and the wait sends the update back to the
// review; a rejection ends it held without touching anything; `action: plan` goes straight to PlanUpdate.
import type { ApprovalOutput, PlanOutput, RenderConfigOutput } from '../../lambdas/contracts/cluster-update';
import { ApprovalChangedError, ApprovalPendingError } from '../../lambdas/shared/errors';
import { runClusterUpdate } from './local-harness';
import { INPUT, prepare, provisionTasks, recorder } from './fake-tasks';

const approval = (status: ApprovalOutput['status']): ApprovalOutput => ({
  status,
  timeoutSeconds: 3600,
  message: `plan 0123 ${status.toLowerCase()}`,
  digest: '0123',
  planKey: 'runs/k/v/plan-0123.json',
});

function gateTasks(review: (call: number) => ApprovalOutput, wait: (payload: unknown) => unknown) {
  const rec = recorder();
  const render = rec.task((): RenderConfigOutput => ({
    artifactKey: 'render/x',
    message: 'rendered',
    approvalRequired: true,
  }));
  const tokens: unknown[] = [];
  const tasks = provisionTasks(
    rec,
    {},
    {
      RenderConfig: render,
      ReviewUpdate: rec.task((_p, call) => review(call)),
      AwaitApproval: (raw: unknown) => {
        tokens.push((raw as { taskToken?: unknown }).taskToken);
        return wait(raw);
      },
      StopAtSafePoint: rec.task((p) => ({
        status: 'REJECTED',
        message: String((p.state as { error?: { Cause?: string } }).error?.Cause),
      })),
    },
  );
  return { rec, tasks, tokens };
}

describe('the approval gate, run locally', () => {
  it('reviews again when the approval changed before the wait, then goes on to the first write', async () => {
    const { rec, tasks, tokens } = gateTasks(
      (call) => approval(call === 1 ? 'PENDING' : 'APPROVED'),
      () => {
        throw new ApprovalChangedError('approved meanwhile');
      },
    );
    const run = await runClusterUpdate(INPUT, { tasks });
    expect(run.error).toBeUndefined();
    expect(run.entered.slice(2, 12)).toEqual([
      'RenderConfig',
      'BeforeFirstWrite',
      'StartApprovalCount',
      'ReviewUpdate',
      'IsUpdateApproved',
      'CountApprovalWait',
      'AwaitApproval',
      'ReviewUpdate',
      'IsUpdateApproved',
      'DeployMainStack',
    ]);
    expect(tokens).toEqual([expect.stringMatching(/^local:/)]);
    expect(run.entered.at(-1)).toBe('Updated');
    expect(rec.calls.map((c) => c.state)).toContain('Finalize');
  });

  it('ends held before the first write while the approval is pending (a CLI run)', async () => {
    const { rec, tasks } = gateTasks(
      () => approval('PENDING'),
      () => {
        throw new ApprovalPendingError('awaits approval');
      },
    );
    const run = await runClusterUpdate(INPUT, { tasks });
    expect(run.error).toBeUndefined();
    expect(run.entered.slice(-3)).toEqual(['AwaitApproval', 'StopAtSafePoint', 'Held']);
    expect(rec.calls.map((c) => c.state)).not.toContain('DeployMainStack');
  });

  it('ends held through StopAtSafePoint when nobody decides in time (States.Timeout of the wait)', async () => {
    const { rec, tasks } = gateTasks(
      () => approval('PENDING'),
      () => {
        throw Object.assign(new Error('the approval timed out'), { name: 'States.Timeout' });
      },
    );
    const run = await runClusterUpdate(INPUT, { tasks });
    expect(run.error).toBeUndefined();
    expect(run.entered.slice(-3)).toEqual(['AwaitApproval', 'StopAtSafePoint', 'Held']);
    const stop = rec.calls.find((c) => c.state === 'StopAtSafePoint')!;
    expect((stop.payload.state as { error?: { Error: string } }).error?.Error).toBe('States.Timeout');
    expect(rec.calls.map((c) => c.state)).not.toContain('DeployMainStack');
  });

  it('ends a rejected plan held through UpdateRejected, with the review message as the cause', async () => {
    const { rec, tasks } = gateTasks(
      () => approval('REJECTED'),
      () => approval('APPROVED'),
    );
    const run = await runClusterUpdate(INPUT, { tasks });
    expect(run.entered.slice(-4)).toEqual(['IsUpdateApproved', 'UpdateRejected', 'StopAtSafePoint', 'Held']);
    expect((run.output as { held: { message: string } }).held.message).toBe('plan 0123 rejected');
    expect(rec.calls.map((c) => c.state)).not.toContain('DeployMainStack');
  });

  it('runs action: plan through PlanUpdate only', async () => {
    const rec = recorder();
    const plan: PlanOutput = {
      targetVersion: 'abc123#def456',
      digest: '0123',
      planKey: 'runs/k/v/plan-0123.json',
      summary: 'abc123#def456: no changes',
      changes: false,
      problems: [],
    };
    const run = await runClusterUpdate(
      { ...INPUT, action: 'plan' },
      { tasks: { Prepare: rec.task(() => prepare('PLAN')), PlanUpdate: rec.task(() => plan) } },
    );
    expect(run.entered).toEqual(['Prepare', 'DecideAction', 'PlanUpdate', 'Planned']);
    expect((run.output as { plan: PlanOutput }).plan).toEqual(plan);
  });
});
