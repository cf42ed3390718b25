import { ensureStacks } from '../../../lambdas/tasks/stacks/ensure-stacks';
import type { RenderedStack } from '../../../lambdas/core/render/render-stack';
import type { RunRecord, StackProgress } from '../../../lambdas/core/model/run';
import { StackFailedError } from '../../../lambdas/shared/errors';
import { FakeStackDeployer } from '../../support/fakes';

const NOW = Date.parse('2024-05-01T12:00:00Z');

const stack = (name: string, template = `{"Resources":{"${name}":{}}}`): RenderedStack => ({
  name,
  kind: 'cf-manifest',
  template,
  tags: { app: 'clm' },
});

/** Poll ensureStacks like the state machine does, merging progress, until DONE (or `max` passes). */
async function untilDone(
  deployer: FakeStackDeployer,
  stacks: RenderedStack[],
  mode: 'sequential' | 'parallel',
  max = 20,
): Promise<{ passes: number; run: Pick<RunRecord, 'stacks'>; outputs: Record<string, Record<string, string>> }> {
  let run: Pick<RunRecord, 'stacks'> = { stacks: {} };
  const outputs: Record<string, Record<string, string>> = {};
  for (let pass = 1; pass <= max; pass++) {
    const result = await ensureStacks(deployer, stacks, run, NOW + pass, mode);
    run = { stacks: { ...run.stacks, ...result.stacks } };
    Object.assign(outputs, result.outputs);
    if (result.step.status === 'DONE') return { passes: pass, run, outputs };
  }
  throw new Error('not done');
}

describe('ensureStacks', () => {
  it('sequential: starts the next stack only when the previous one finished', async () => {
    const deployer = new FakeStackDeployer(2);
    const stacks = [stack('a'), stack('b'), stack('c')];

    const first = await ensureStacks(deployer, stacks, { stacks: {} }, NOW, 'sequential');

    expect(deployer.deploys).toEqual(['a']);
    expect(first.step).toMatchObject({ status: 'IN_PROGRESS', message: '0/3 stacks ready; waiting for a' });
    const fresh = new FakeStackDeployer(2);
    const done = await untilDone(fresh, stacks, 'sequential');
    expect(fresh.deploys).toEqual(['a', 'b', 'c']);
    expect(Object.values(done.run.stacks).map((s) => s.status)).toEqual(['done', 'done', 'done']);
  });

  it('sequential order is kept across passes: b never starts while a is in progress', async () => {
    const deployer = new FakeStackDeployer(3);
    const stacks = [stack('a'), stack('b')];
    let run: Pick<RunRecord, 'stacks'> = { stacks: {} };
    const startedWhileAInProgress: string[] = [];
    for (let pass = 0; pass < 10; pass++) {
      const result = await ensureStacks(deployer, stacks, run, NOW, 'sequential');
      run = { stacks: { ...run.stacks, ...result.stacks } };
      if (run.stacks.a?.status === 'deploying' && deployer.deploys.includes('b')) startedWhileAInProgress.push('b');
      if (result.step.status === 'DONE') break;
    }

    expect(startedWhileAInProgress).toEqual([]);
    expect(deployer.deploys).toEqual(['a', 'b']);
    expect(run.stacks.b?.status).toBe('done');
  });

  it('parallel: starts every stack in the first pass', async () => {
    const deployer = new FakeStackDeployer(2);

    const first = await ensureStacks(deployer, [stack('a'), stack('b'), stack('c')], { stacks: {} }, NOW, 'parallel');

    expect(deployer.deploys).toEqual(['a', 'b', 'c']);
    expect(first.step).toMatchObject({ status: 'IN_PROGRESS', started: 3 });
    expect(Object.values(first.stacks).every((s) => s.status === 'deploying')).toBe(true);
    // Polling them again starts nothing (the StackOperations metric counts operations, not polls).
    const again = await ensureStacks(
      deployer,
      [stack('a'), stack('b'), stack('c')],
      { stacks: first.stacks },
      NOW,
      'parallel',
    );
    expect(again.step.started).toBeUndefined();
  });

  it('returns the outputs of stacks that finished', async () => {
    const deployer = new FakeStackDeployer(1);
    deployer.setOutputs('a', { VpcId: 'vpc-1' });

    const done = await untilDone(deployer, [stack('a')], 'parallel');

    expect(done.outputs.a).toEqual({ VpcId: 'vpc-1' });
  });

  it('NO_CHANGES on a healthy stack is success, marked noChanges, in one pass', async () => {
    const deployer = new FakeStackDeployer();
    deployer.setStack('a', stack('a').template, 'UPDATE_COMPLETE');

    const result = await ensureStacks(deployer, [stack('a')], { stacks: {} }, NOW, 'parallel');

    expect(result.step.status).toBe('DONE');
    expect(result.stacks.a).toMatchObject({ status: 'done', noChanges: true });
    expect(deployer.deploys).toEqual([]);
  });

  it('NO_CHANGES on a stack left in UPDATE_ROLLBACK_COMPLETE fails with StackFailedError', async () => {
    const deployer = new FakeStackDeployer();
    deployer.setStack(
      'a',
      stack('a').template,
      'UPDATE_ROLLBACK_COMPLETE',
      'Resource handler returned message: Invalid AMI',
    );

    const attempt = ensureStacks(deployer, [stack('a')], { stacks: {} }, NOW, 'parallel');

    await expect(attempt).rejects.toBeInstanceOf(StackFailedError);
    await expect(ensureStacks(deployer, [stack('a')], { stacks: {} }, NOW, 'parallel')).rejects.toThrow(
      'Stack a is UPDATE_ROLLBACK_COMPLETE: Resource handler returned message: Invalid AMI',
    );
  });

  it.each([
    ['UPDATE_ROLLBACK_COMPLETE', 'Launch template version does not exist'],
    ['CREATE_FAILED', 'Limit exceeded'],
  ])('a stack ending in %s fails with StackFailedError carrying the reason', async (status, reason) => {
    const deployer = new FakeStackDeployer(1);
    deployer.failNext('a', status, reason);
    const first = await ensureStacks(deployer, [stack('a')], { stacks: {} }, NOW, 'parallel');

    const second = ensureStacks(deployer, [stack('a')], { stacks: first.stacks }, NOW, 'parallel');

    await expect(second).rejects.toMatchObject({
      name: 'StackFailedError',
      stackName: 'a',
      status,
      reason: expect.stringContaining(reason),
    });
  });

  it('a stack ending in ROLLBACK_COMPLETE is returned as failed, with its progress marked for recovery', async () => {
    const deployer = new FakeStackDeployer(1);
    deployer.failNext('a', 'ROLLBACK_COMPLETE', 'Security group sg-1 not found');
    const first = await ensureStacks(deployer, [stack('a')], { stacks: {} }, NOW, 'parallel');

    const second = await ensureStacks(deployer, [stack('a')], { stacks: first.stacks }, NOW, 'parallel');

    expect(second.failed).toMatchObject({
      name: 'StackFailedError',
      stackName: 'a',
      status: 'ROLLBACK_COMPLETE',
      reason: expect.stringContaining('Security group sg-1 not found'),
    });
    expect(second.stacks.a.status).toBe('failed');
  });

  it('a stack that vanished while deploying fails', async () => {
    const deployer = new FakeStackDeployer();
    const run: Pick<RunRecord, 'stacks'> = { stacks: { a: { status: 'deploying', startedAt: NOW } } };

    await expect(ensureStacks(deployer, [stack('a')], run, NOW, 'parallel')).rejects.toMatchObject({
      name: 'StackFailedError',
      status: 'MISSING',
    });
  });

  it('never redeploys a stack the run already finished, even if its template changed', async () => {
    const deployer = new FakeStackDeployer();
    const done: StackProgress = { status: 'done', startedAt: NOW, completedAt: NOW };

    const result = await ensureStacks(
      deployer,
      [stack('a', '{"changed":true}'), stack('b')],
      { stacks: { a: done } },
      NOW,
      'sequential',
    );

    expect(deployer.deploys).toEqual(['b']);
    expect(result.step.message).toBe('1/2 stacks ready; waiting for b');
  });

  it('keeps the start time of a stack across polls', async () => {
    const deployer = new FakeStackDeployer(3);
    const first = await ensureStacks(deployer, [stack('a')], { stacks: {} }, NOW, 'parallel');

    const later = await ensureStacks(deployer, [stack('a')], { stacks: first.stacks }, NOW + 30_000, 'parallel');

    expect(later.stacks.a).toEqual({ status: 'deploying', startedAt: NOW });
  });

  it('an empty stage is DONE at once', async () => {
    const result = await ensureStacks(new FakeStackDeployer(), [], { stacks: {} }, NOW, 'parallel');

    expect(result.step).toEqual({ status: 'DONE', waitSeconds: 1, message: 'no stacks in this stage' });
  });
});

describe('ensureStacks when the progress write after a start was lost', () => {
  it('treats a busy stack as not done yet and deploys it again once the running operation ended', async () => {
    // Arrange: the stack is already updating (started by a run whose progress write was lost)
    const deployer = new FakeStackDeployer(2);
    const s = stack('a');
    await deployer.deploy({ name: s.name, templateBody: s.template, tags: s.tags });

    // Act: the resumed pass does not know it started the stack
    const busy = await ensureStacks(deployer, [s], { stacks: {} }, NOW, 'parallel');

    // Assert: waiting, nothing recorded as deploying, no error
    expect(busy.step).toMatchObject({ status: 'IN_PROGRESS', message: '0/1 stacks ready; waiting for a (busy)' });
    expect(busy.stacks).toEqual({});
    // The fake's operations advance when observed: let the running update finish
    while ((await deployer.describe('a'))?.status.endsWith('_IN_PROGRESS')) {
      /* polls */
    }
    const next = await ensureStacks(deployer, [s], { stacks: {} }, NOW + 60_000, 'parallel');
    expect(next.step.status).toBe('DONE');
    expect(next.stacks.a).toMatchObject({ status: 'done', noChanges: true });
  });
});

describe('ensureStacks waits', () => {
  const deployerSaying = (operation: 'create' | 'update' | undefined) => {
    const deployer = new FakeStackDeployer(2);
    const deploy = deployer.deploy.bind(deployer);
    deployer.deploy = async (spec) => ({ ...(await deploy(spec)), ...(operation ? { operation } : {}) });
    return deployer;
  };

  it('checks first when the operation should be done: a create after 10 min, an update after 5', async () => {
    const create = await ensureStacks(deployerSaying('create'), [stack('a')], { stacks: {} }, NOW, 'parallel');
    expect(create.step.waitSeconds).toBe(600);
    expect(create.stacks.a).toEqual({ status: 'deploying', startedAt: NOW, operation: 'create' });
    const update = await ensureStacks(deployerSaying('update'), [stack('a')], { stacks: {} }, NOW, 'parallel');
    expect(update.step.waitSeconds).toBe(300);
  });

  it("expects the stack's learned duration of that operation, and the sooner of parallel stacks", async () => {
    const learned = { a: { create: 90_000 }, b: { create: 40_000 } };
    const run = { stacks: {}, learnedStackMs: learned };
    const result = await ensureStacks(deployerSaying('create'), [stack('a'), stack('b')], run, NOW, 'parallel');
    expect(result.step.waitSeconds).toBe(40);
  });

  it('backs off after the expected time instead of polling every 15 s', async () => {
    const deployer = deployerSaying('update');
    const first = await ensureStacks(deployer, [stack('a')], { stacks: {} }, NOW, 'parallel');
    const late = await ensureStacks(deployer, [stack('a')], { stacks: first.stacks }, NOW + 400_000, 'parallel');
    expect(late.step).toMatchObject({ status: 'IN_PROGRESS', waitSeconds: 100 });
  });

  it('keeps the operation when the stack is done, for the next run to learn from', async () => {
    const done = await untilDone(deployerSaying('create'), [stack('a')], 'parallel');
    expect(done.run.stacks.a).toMatchObject({ status: 'done', operation: 'create' });
  });
});
