// The simulated CloudFormation's rollback states (which moto never produces), with DescribeStackEvents' shapes.
import { stackFailureCause } from '../../lambdas/core/stacks/stack-events';
import { SimulatedWorld } from '../../lambdas/sim';
import { StackRecoveryNeededError, ValidationError } from '../../lambdas/shared/errors';
import type { z } from 'zod';
import type { StackFailure } from '../../lambdas/sim/scenario';
import { MAIN_TEMPLATE, testCluster } from './fixtures';

const cluster = testCluster();
const spec = { name: 'kube-1', templateBody: MAIN_TEMPLATE, tags: { owner: 'team' } };
const REASON = 'Resource handler returned message: "Simulated failure"';

function world(stackFailures: z.input<typeof StackFailure>[]) {
  const w = SimulatedWorld.create({
    timings: { stackCreateSeconds: 60, stackUpdateSeconds: 40, stackDeleteSeconds: 30 },
    faults: { stackFailures },
  });
  return { w, stacks: w.forCluster(cluster).stacks };
}

async function createThenFailUpdate(rollbackFailures: number) {
  const made = world([{ stack: 'kube-1', operation: 'update', resource: 'NodeSecurityGroup', rollbackFailures }]);
  await made.stacks.deploy(spec);
  made.w.advance(60_000);
  await made.stacks.deploy({ ...spec, tags: { owner: 'other' } });
  made.w.advance(40_000);
  return made;
}

describe('simulated CloudFormation rollbacks', () => {
  it('a failed create stays in ROLLBACK_COMPLETE with events naming the failed resource and the cancelled one', async () => {
    const { w, stacks } = world([{ stack: 'kube-1', operation: 'create', resource: 'MasterKey' }]);
    await stacks.deploy(spec);
    w.advance(60_000);

    const events = await stacks.events('kube-1');

    expect((await stacks.describe('kube-1'))?.status).toBe('ROLLBACK_COMPLETE');
    expect(events.map((e) => `${e.logicalResourceId} ${e.resourceStatus}`)).toEqual([
      'kube-1 ROLLBACK_COMPLETE',
      'NodeSecurityGroup DELETE_COMPLETE',
      'MasterKey DELETE_COMPLETE',
      'kube-1 ROLLBACK_IN_PROGRESS',
      'NodeSecurityGroup CREATE_FAILED',
      'MasterKey CREATE_FAILED',
      'NodeSecurityGroup CREATE_IN_PROGRESS',
      'MasterKey CREATE_IN_PROGRESS',
      'kube-1 CREATE_IN_PROGRESS',
    ]);
    expect(events.at(-1)).toMatchObject({
      resourceType: 'AWS::CloudFormation::Stack',
      resourceStatusReason: 'User Initiated',
      physicalResourceId: expect.stringMatching(/^arn:aws:cloudformation:eu-central-1:\d{12}:stack\/kube-1\//),
    });
    expect(events[3].resourceStatusReason).toBe(
      'The following resource(s) failed to create: [MasterKey, NodeSecurityGroup]. Rollback requested by user.',
    );
    expect(stackFailureCause(events)?.failed).toMatchObject({ logicalId: 'MasterKey', reason: REASON });
    await expect(stacks.deploy(spec)).rejects.toBeInstanceOf(StackRecoveryNeededError);
  });

  it('a failed update whose rollback fails ends in UPDATE_ROLLBACK_FAILED; a continue without skipping fails again', async () => {
    const { w, stacks } = await createThenFailUpdate(2);
    const failed = await stacks.describe('kube-1');

    await stacks.continueUpdateRollback('kube-1', []);
    const continuing = await stacks.describe('kube-1');
    w.advance(40_000);

    expect(failed?.status).toBe('UPDATE_ROLLBACK_FAILED');
    expect(continuing?.status).toBe('UPDATE_ROLLBACK_IN_PROGRESS');
    expect((await stacks.describe('kube-1'))?.status).toBe('UPDATE_ROLLBACK_FAILED');
    const cause = stackFailureCause(await stacks.events('kube-1'));
    expect(cause?.failed?.logicalId).toBe('NodeSecurityGroup');
    expect(cause?.rollbackFailed.map((r) => r.logicalId)).toEqual(['NodeSecurityGroup']);
    await expect(stacks.deploy(spec)).rejects.toBeInstanceOf(StackRecoveryNeededError);
  });

  it('ContinueUpdateRollback skipping the failed resource completes the rollback; the stack can be updated again', async () => {
    const { w, stacks } = await createThenFailUpdate(5);

    await stacks.continueUpdateRollback('kube-1', ['NodeSecurityGroup']);
    w.advance(40_000);

    expect((await stacks.describe('kube-1'))?.status).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect((await stacks.events('kube-1'))[2]).toMatchObject({
      logicalResourceId: 'NodeSecurityGroup',
      resourceStatus: 'UPDATE_COMPLETE',
      resourceStatusReason: 'Resource skipped during UpdateRollback',
    });
    expect(await stacks.deploy({ ...spec, tags: { owner: 'other' } })).toEqual({
      result: 'STARTED',
      operation: 'update',
    });
  });

  it('refuses to skip a resource that did not fail, and to continue a stack not in UPDATE_ROLLBACK_FAILED', async () => {
    const { stacks } = await createThenFailUpdate(1);

    await expect(stacks.continueUpdateRollback('kube-1', ['MasterKey'])).rejects.toThrow(
      'Resources [MasterKey] cannot be skipped: only resources in UPDATE_FAILED state can be skipped',
    );
    const { w: w2, stacks: fresh } = world([]);
    await fresh.deploy(spec);
    w2.advance(60_000);
    await expect(fresh.continueUpdateRollback('kube-1', [])).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('simulated leftovers (scenario clusters.<id>.leftovers)', () => {
  it('creates them once, tagged for the cluster; a security group is in use while its load balancer exists', async () => {
    const w = SimulatedWorld.create({
      clusters: {
        [cluster.id]: {
          leftovers: { loadBalancers: [{ name: 'a0b1c2', type: 'classic' }], volumes: 1, networkInterfaces: 1 },
        },
      },
    });
    const leftovers = w.forCluster(cluster).leftovers;
    w.forCluster(cluster);

    const scan = await leftovers.find(cluster.id);
    const group = scan.found.find((l) => l.kind === 'security-group')!;
    const refused = await leftovers.delete(group);
    const lb = await leftovers.delete({ kind: 'classic-load-balancer', id: 'a0b1c2' });
    const then = await leftovers.delete(group);

    expect(scan.found.map((l) => l.kind).sort()).toEqual([
      'classic-load-balancer',
      'network-interface',
      'security-group',
      'volume',
    ]);
    expect(w.cloudResources(cluster.id).find((r) => r.kind === 'volume')?.tags).toMatchObject({
      [`kubernetes.io/cluster/${cluster.id}`]: 'owned',
    });
    expect([refused, lb, then]).toEqual(['in-use', 'deleted', 'deleted']);
    expect(await leftovers.delete(group)).toBe('gone');
    expect((await leftovers.find('another-cluster')).found).toEqual([]);
  });

  it('a v2 load balancer comes with a target group, in use until the load balancer is gone', async () => {
    const w = SimulatedWorld.create({
      clusters: {
        [cluster.id]: {
          leftovers: { loadBalancers: [{ name: 'k8s-web', type: 'network' }], volumes: 0, networkInterfaces: 0 },
        },
      },
    });
    const leftovers = w.forCluster(cluster).leftovers;

    const scan = await leftovers.find(cluster.id);
    const tg = scan.found.find((l) => l.kind === 'target-group')!;
    const lb = scan.found.find((l) => l.kind === 'load-balancer')!;
    const refused = await leftovers.delete(tg);
    const deleted = [await leftovers.delete(lb), await leftovers.delete(tg)];

    expect(tg).toEqual({
      kind: 'target-group',
      id: 'k8s-web-tg',
      arn: expect.stringMatching(
        /^arn:aws:elasticloadbalancing:[a-z0-9-]+:\d{12}:targetgroup\/k8s-web-tg\/[0-9a-f]{16}$/,
      ),
    });
    expect(lb.arn).toMatch(/:loadbalancer\/net\/k8s-web\//);
    expect(refused).toBe('in-use');
    expect(deleted).toEqual(['deleted', 'deleted']);
  });
});
