// ensureStacks: recovery of stacks CloudFormation left in UPDATE_ROLLBACK_FAILED or ROLLBACK_COMPLETE, and problems
// that name the first failed resource — with DescribeStackEvents pages as CloudFormation returns them.
import type { RenderedStack } from '../../../lambdas/core/render/render-stack';
import type { RunRecord } from '../../../lambdas/core/model/run';
import { ensureStacks, type EnsureStacksOptions } from '../../../lambdas/tasks/stacks/ensure-stacks';
import { StackFailedError, ValidationError } from '../../../lambdas/shared/errors';
import {
  AMI_REASON,
  CONTINUED_ROLLBACK_FAILED_AGAIN,
  CREATE_ROLLED_BACK,
  ROLLBACK_REASON,
  UPDATE_ROLLBACK_FAILED,
  UPDATE_ROLLED_BACK,
  VPC_REASON,
  portEvents,
} from '../../fixtures/stack-events';
import { FakeStackDeployer } from '../../support/fakes';

const NOW = Date.parse('2026-03-04T13:00:00Z');
const MAIN: RenderedStack = {
  name: 'kube-1',
  kind: 'cluster',
  template: '{"Resources":{"A":{}}}',
  tags: { app: 'clm' },
};

async function passes(
  deployer: FakeStackDeployer,
  options: EnsureStacksOptions = {},
  max = 12,
): Promise<{ run: Pick<RunRecord, 'stacks'>; messages: string[] }> {
  let run: Pick<RunRecord, 'stacks'> = { stacks: {} };
  const messages: string[] = [];
  for (let pass = 1; pass <= max; pass++) {
    const result = await ensureStacks(deployer, [MAIN], run, NOW + pass, 'parallel', options);
    run = { stacks: { ...run.stacks, ...result.stacks } };
    messages.push(result.step.message);
    if (result.step.status === 'DONE') return { run, messages };
  }
  throw new Error(`not done after ${max} passes: ${messages.join(' | ')}`);
}

describe('ensureStacks recovering a stack found in UPDATE_ROLLBACK_FAILED', () => {
  it('continues the rollback without skipping anything, records the cause, then deploys the update', async () => {
    // Arrange
    const deployer = new FakeStackDeployer(1);
    deployer.setStack(
      'kube-1',
      '{"old":true}',
      'UPDATE_ROLLBACK_FAILED',
      'The following resource(s) failed to update: [WorkerAsg].',
    );
    deployer.setEvents('kube-1', portEvents(UPDATE_ROLLBACK_FAILED));

    // Act
    const { run, messages } = await passes(deployer);

    // Assert
    expect(deployer.calls).toEqual(['continueUpdateRollback kube-1 []', 'deploy kube-1']);
    expect(messages[0]).toContain('waiting for kube-1 (continuing its rollback (first failed resource WorkerAsg');
    expect(run.stacks['kube-1']).toMatchObject({
      status: 'done',
      recoveries: [
        {
          action: 'continue-rollback',
          foundStatus: 'UPDATE_ROLLBACK_FAILED',
          at: NOW + 1,
          failedResource: {
            logicalId: 'WorkerAsg',
            resourceType: 'AWS::AutoScaling::AutoScalingGroup',
            reason: AMI_REASON,
          },
        },
      ],
    });
    const cause = run.stacks['kube-1'].recoveries![0].cause;
    expect(cause).toContain(
      `first failed resource WorkerAsg (AWS::AutoScaling::AutoScalingGroup) UPDATE_FAILED: ${AMI_REASON}`,
    );
    expect(cause).toContain(
      `rollback failed on WorkerAsg (AWS::AutoScaling::AutoScalingGroup) UPDATE_FAILED: ${ROLLBACK_REASON}`,
    );
  });

  it('skips exactly the resources the operator named for this stack', async () => {
    const deployer = new FakeStackDeployer(1);
    deployer.setStack('kube-1', '{"old":true}', 'UPDATE_ROLLBACK_FAILED');
    deployer.setEvents('kube-1', portEvents(UPDATE_ROLLBACK_FAILED));

    const { run } = await passes(deployer, { rollbackSkips: { 'kube-1': ['WorkerAsg'], other: ['X'] } });

    expect(deployer.calls[0]).toBe('continueUpdateRollback kube-1 [WorkerAsg]');
    expect(run.stacks['kube-1'].recoveries?.[0].skipped).toEqual(['WorkerAsg']);
  });

  it('refuses to skip a resource that did not fail in the rollback, and calls nothing', async () => {
    const deployer = new FakeStackDeployer(1);
    deployer.setStack('kube-1', '{"old":true}', 'UPDATE_ROLLBACK_FAILED');
    deployer.setEvents('kube-1', portEvents(UPDATE_ROLLBACK_FAILED));

    const attempt = passes(deployer, { rollbackSkips: { 'kube-1': ['LaunchTemplate'] } });

    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    await expect(passes(deployer, { rollbackSkips: { 'kube-1': ['LaunchTemplate'] } })).rejects.toThrow(
      'kube-1:LaunchTemplate did not fail in the rollback of stack kube-1; the resources that did: WorkerAsg',
    );
    expect(deployer.calls).toEqual([]);
  });

  it('fails with the resource that blocks the rollback and the flag to skip it when the continued rollback fails again', async () => {
    const deployer = new FakeStackDeployer(1);
    deployer.setStack('kube-1', '{"old":true}', 'UPDATE_ROLLBACK_FAILED');
    deployer.setEvents('kube-1', portEvents(UPDATE_ROLLBACK_FAILED));
    deployer.continueRollbackEndsIn = 'UPDATE_ROLLBACK_FAILED';
    const first = await ensureStacks(deployer, [MAIN], { stacks: {} }, NOW, 'parallel');
    deployer.setEvents('kube-1', portEvents(CONTINUED_ROLLBACK_FAILED_AGAIN));

    const second = await ensureStacks(deployer, [MAIN], { stacks: first.stacks }, NOW + 1, 'parallel');

    expect(second.failed).toMatchObject({
      name: 'StackFailedError',
      status: 'UPDATE_ROLLBACK_FAILED',
      reason: expect.stringContaining(
        `rollback failed on WorkerAsg (AWS::AutoScaling::AutoScalingGroup) UPDATE_FAILED: ${ROLLBACK_REASON}`,
      ),
    });
    expect(second.failed?.message).toContain('--skip-rollback-resources kube-1:<LogicalId>');
    // Recorded as failed, with the recovery it tried: the next execution tries again (with the operator's skips)
    expect(second.stacks['kube-1']).toMatchObject({ status: 'failed', recoveries: [{ action: 'continue-rollback' }] });
    expect(deployer.calls).toEqual(['continueUpdateRollback kube-1 []']);
    deployer.continueRollbackEndsIn = 'UPDATE_ROLLBACK_COMPLETE';
    const third = await ensureStacks(deployer, [MAIN], { stacks: second.stacks }, NOW + 2, 'parallel', {
      rollbackSkips: { 'kube-1': ['WorkerAsg'] },
    });
    expect(third.stacks['kube-1']).toMatchObject({ status: 'recovering' });
    expect(third.stacks['kube-1'].recoveries).toHaveLength(2);
    expect(deployer.calls).toEqual(['continueUpdateRollback kube-1 []', 'continueUpdateRollback kube-1 [WorkerAsg]']);
  });
});

describe('ensureStacks recovering a stack found in ROLLBACK_COMPLETE', () => {
  it('deletes it (lifting termination protection, it holds no resources) and creates it again', async () => {
    const deployer = new FakeStackDeployer(1);
    deployer.setStack('kube-1', MAIN.template, 'ROLLBACK_COMPLETE');
    deployer.setTerminationProtection('kube-1', true);
    deployer.setEvents('kube-1', portEvents(CREATE_ROLLED_BACK));

    const { run, messages } = await passes(deployer);

    expect(deployer.calls).toEqual(['disableTerminationProtection kube-1', 'delete kube-1', 'deploy kube-1']);
    expect(messages[0]).toContain('deleting it after a failed create (first failed resource NodeSecurityGroup');
    expect(run.stacks['kube-1']).toMatchObject({
      status: 'done',
      recoveries: [
        {
          action: 'recreate',
          foundStatus: 'ROLLBACK_COMPLETE',
          failedResource: {
            logicalId: 'NodeSecurityGroup',
            resourceType: 'AWS::EC2::SecurityGroup',
            reason: VPC_REASON,
          },
        },
      ],
    });
  });
});

describe('ensureStacks when an operation it started fails', () => {
  it('a create ending in ROLLBACK_COMPLETE fails naming the first failed resource; the next execution re-creates it', async () => {
    // Arrange
    const deployer = new FakeStackDeployer(1);
    deployer.failNext('kube-1', 'ROLLBACK_COMPLETE', '');
    deployer.setEvents('kube-1', portEvents(CREATE_ROLLED_BACK));
    const first = await ensureStacks(deployer, [MAIN], { stacks: {} }, NOW, 'parallel');

    // Act
    const second = await ensureStacks(deployer, [MAIN], { stacks: first.stacks }, NOW + 1, 'parallel');
    const callsAfterFailure = [...deployer.calls];
    const third = await ensureStacks(deployer, [MAIN], { stacks: second.stacks }, NOW + 2, 'parallel');

    // Assert
    expect(second.failed?.message).toBe(
      `Stack kube-1 is ROLLBACK_COMPLETE: first failed resource NodeSecurityGroup (AWS::EC2::SecurityGroup) CREATE_FAILED: ${VPC_REASON}; the next run deletes the stack and creates it again`,
    );
    expect(second.stacks['kube-1'].status).toBe('failed');
    expect(callsAfterFailure).toEqual(['deploy kube-1']);
    expect(third.failed).toBeUndefined();
    expect(third.stacks['kube-1']).toMatchObject({ status: 'recovering', recoveries: [{ action: 'recreate' }] });
    expect(deployer.calls).toEqual(['deploy kube-1', 'disableTerminationProtection kube-1', 'delete kube-1']);
  });

  it('an update ending in UPDATE_ROLLBACK_COMPLETE names the resource and its reason, not "stack failed"', async () => {
    const deployer = new FakeStackDeployer(1);
    deployer.setStack('kube-1', '{"old":true}', 'UPDATE_COMPLETE');
    deployer.failNext(
      'kube-1',
      'UPDATE_ROLLBACK_COMPLETE',
      'The following resource(s) failed to update: [LaunchTemplate].',
    );
    deployer.setEvents('kube-1', portEvents(UPDATE_ROLLED_BACK));
    const first = await ensureStacks(deployer, [MAIN], { stacks: {} }, NOW, 'parallel');

    const second = ensureStacks(deployer, [MAIN], { stacks: first.stacks }, NOW + 1, 'parallel');

    await expect(second).rejects.toMatchObject({
      name: 'StackFailedError',
      message: `Stack kube-1 is UPDATE_ROLLBACK_COMPLETE: first failed resource LaunchTemplate (AWS::EC2::LaunchTemplate) UPDATE_FAILED: ${AMI_REASON}`,
    });
  });

  it('an update ending in UPDATE_ROLLBACK_FAILED says the next run continues the rollback', async () => {
    const deployer = new FakeStackDeployer(1);
    deployer.setStack('kube-1', '{"old":true}', 'UPDATE_COMPLETE');
    deployer.failNext('kube-1', 'UPDATE_ROLLBACK_FAILED', '');
    deployer.setEvents('kube-1', portEvents(UPDATE_ROLLBACK_FAILED));
    const first = await ensureStacks(deployer, [MAIN], { stacks: {} }, NOW, 'parallel');

    const second = await ensureStacks(deployer, [MAIN], { stacks: first.stacks }, NOW + 1, 'parallel');

    expect(second.failed).toBeInstanceOf(StackFailedError);
    expect(second.failed?.message).toMatch(
      /first failed resource WorkerAsg .*; rollback failed on WorkerAsg .*; the next run continues the rollback/,
    );
    expect(deployer.calls).toEqual(['deploy kube-1']);
  });
});
