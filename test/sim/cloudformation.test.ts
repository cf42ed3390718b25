import { stackFailureCause } from '../../lambdas/core/stacks/stack-events';
import { SimulatedWorld } from '../../lambdas/sim';
import { StackBusyError, StackFailedError, ValidationError } from '../../lambdas/shared/errors';
import { ACCOUNT, MAIN_TEMPLATE, REGION, poolTemplate, subnetsOf, testCluster } from './fixtures';

const cluster = testCluster();
const spec = { name: 'kube-1', templateBody: MAIN_TEMPLATE, tags: { owner: 'team' } };

function world(scenario = {}) {
  const w = SimulatedWorld.create({
    timings: { stackCreateSeconds: 60, stackUpdateSeconds: 40, stackDeleteSeconds: 30 },
    ...scenario,
  });
  return { w, stacks: w.forCluster(cluster).stacks };
}

describe('simulated CloudFormation', () => {
  it('creates a stack in stackCreateSeconds of virtual time', async () => {
    const { w, stacks } = world();

    expect(await stacks.deploy(spec)).toEqual({ result: 'STARTED', operation: 'create' });
    const creating = await stacks.describe('kube-1');
    w.advance(59_999);
    const almost = await stacks.describe('kube-1');
    w.advance(1);
    const done = await stacks.describe('kube-1');

    expect(creating?.status).toBe('CREATE_IN_PROGRESS');
    expect(creating?.outputs).toEqual({});
    expect(almost?.status).toBe('CREATE_IN_PROGRESS');
    expect(done?.status).toBe('CREATE_COMPLETE');
    expect(done?.tags).toEqual({ owner: 'team' });
    expect(done?.lastUpdatedTime).toBe('2026-01-01T00:00:00.000Z');
  });

  it('answers NO_CHANGES for the same template and tags, and updates when tags change', async () => {
    const { w, stacks } = world();
    await stacks.deploy(spec);
    w.advance(60_000);

    const same = await stacks.deploy(spec);
    const retagged = await stacks.deploy({ ...spec, tags: { owner: 'other' } });
    const updating = await stacks.describe('kube-1');
    w.advance(40_000);

    expect(same.result).toBe('NO_CHANGES');
    expect(retagged).toEqual({ result: 'STARTED', operation: 'update' });
    expect(updating?.status).toBe('UPDATE_IN_PROGRESS');
    expect((await stacks.describe('kube-1'))?.status).toBe('UPDATE_COMPLETE');
    expect((await stacks.describe('kube-1'))?.tags).toEqual({ owner: 'other' });
  });

  it('refuses to deploy or delete a stack that is in progress', async () => {
    const { stacks } = world();
    await stacks.deploy(spec);

    await expect(stacks.deploy({ ...spec, tags: {} })).rejects.toBeInstanceOf(StackBusyError);
    await expect(stacks.delete('kube-1', { disableTerminationProtection: true })).rejects.toBeInstanceOf(
      StackBusyError,
    );
  });

  it('rolls back the next update of a named stack when a scenario fault says so, and succeeds on the retry', async () => {
    const { w, stacks } = world({
      faults: { stackFailures: [{ stack: 'kube-1', operation: 'update', reason: 'Simulated: role quota exceeded' }] },
    });
    await stacks.deploy(spec);
    w.advance(60_000);
    const outputsBefore = (await stacks.describe('kube-1'))!.outputs;

    await stacks.deploy({ ...spec, tags: { owner: 'x' } });
    w.advance(40_000);
    const failed = await stacks.describe('kube-1');
    await stacks.deploy({ ...spec, tags: { owner: 'x' } });
    w.advance(40_000);

    expect(failed).toMatchObject({
      status: 'UPDATE_ROLLBACK_COMPLETE',
      reason: 'The following resource(s) failed to update: [WorkerRole].',
      tags: { owner: 'team' },
    });
    expect(failed?.outputs).toEqual(outputsBefore);
    expect((await stacks.describe('kube-1'))?.status).toBe('UPDATE_COMPLETE');
  });

  it('leaves a failed create in ROLLBACK_COMPLETE, which cannot be updated', async () => {
    const { w, stacks } = world({ faults: { stackFailures: [{ stack: 'kube-1', operation: 'create' }] } });
    await stacks.deploy(spec);
    w.advance(60_000);

    expect((await stacks.describe('kube-1'))?.status).toBe('ROLLBACK_COMPLETE');
    await expect(stacks.deploy(spec)).rejects.toBeInstanceOf(StackFailedError);
  });

  it('rolls back a create whose resources cannot be made (unknown subnet), naming the resource', async () => {
    const { w, stacks } = world();
    await stacks.deploy({ name: 'pool', templateBody: poolTemplate({ subnets: ['subnet-nope'] }), tags: {} });
    w.advance(60_000);

    const stack = await stacks.describe('pool');
    const cause = stackFailureCause(await stacks.events('pool'));
    expect(stack?.status).toBe('ROLLBACK_COMPLETE');
    expect(cause?.failed).toMatchObject({
      logicalId: 'AutoScalingGroup',
      resourceType: 'AWS::AutoScaling::AutoScalingGroup',
      status: 'CREATE_FAILED',
    });
    expect(cause?.failed?.reason).toContain("The subnet ID 'subnet-nope' does not exist");
    expect(w.nextEventAt()).toBeUndefined();
  });

  it('fails a TLS listener whose certificate is not an ISSUED ACM certificate of the account, as ELB does', async () => {
    const issued = `arn:aws:acm:${REGION}:${ACCOUNT}:certificate/11111111-2222-3333-4444-555555555555`;
    const { w, stacks } = world({
      accounts: [{ account: ACCOUNT, region: REGION, certificates: [{ domains: ['*.example.org'], arn: issued }] }],
    });
    const listener = (arn: string) =>
      [
        'Resources:',
        '  Nlb:',
        '    Type: AWS::ElasticLoadBalancingV2::LoadBalancer',
        '    Properties: {Type: network}',
        '  Listener:',
        '    Type: AWS::ElasticLoadBalancingV2::Listener',
        '    Properties:',
        '      Protocol: TLS',
        '      Port: 443',
        '      LoadBalancerArn: !Ref Nlb',
        `      Certificates: [{CertificateArn: "${arn}"}]`,
        '      DefaultActions: [{Type: forward, TargetGroupArn: tg}]',
      ].join('\n');
    const unknown = issued.replace('1111', '9999');

    await stacks.deploy({ name: 'good', templateBody: listener(issued), tags: {} });
    await stacks.deploy({ name: 'bad', templateBody: listener(unknown), tags: {} });
    w.advance(60_000);

    expect((await stacks.describe('good'))?.status).toBe('CREATE_COMPLETE');
    expect((await stacks.describe('bad'))?.status).toBe('ROLLBACK_COMPLETE');
    const cause = stackFailureCause(await stacks.events('bad'));
    expect(cause?.failed).toMatchObject({ logicalId: 'Listener', status: 'CREATE_FAILED' });
    expect(cause?.failed?.reason).toContain(`CertificateNotFound: Certificate '${unknown}' not found`);
  });

  it('fails a classic load balancer whose HTTPS listener names a certificate the account does not hold', async () => {
    const issued = `arn:aws:acm:${REGION}:${ACCOUNT}:certificate/11111111-2222-3333-4444-555555555555`;
    const { w, stacks } = world({
      accounts: [{ account: ACCOUNT, region: REGION, certificates: [{ domains: ['*.example.org'], arn: issued }] }],
    });
    const balancer = (arn: string) =>
      [
        'Resources:',
        '  Elb:',
        '    Type: AWS::ElasticLoadBalancing::LoadBalancer',
        '    Properties:',
        `      Listeners: [{LoadBalancerPort: "443", InstancePort: "443", Protocol: HTTPS, SSLCertificateId: "${arn}"}]`,
      ].join('\n');
    const unknown = issued.replace('1111', '9999');

    await stacks.deploy({ name: 'good', templateBody: balancer(issued), tags: {} });
    await stacks.deploy({ name: 'bad', templateBody: balancer(unknown), tags: {} });
    w.advance(60_000);

    expect((await stacks.describe('good'))?.status).toBe('CREATE_COMPLETE');
    expect((await stacks.describe('bad'))?.status).toBe('ROLLBACK_COMPLETE');
    const cause = stackFailureCause(await stacks.events('bad'));
    expect(cause?.failed).toMatchObject({ logicalId: 'Elb', status: 'CREATE_FAILED' });
    expect(cause?.failed?.reason).toContain(
      `CertificateNotFound: Server Certificate not found for the key: ${unknown}`,
    );
  });

  it('rejects broken templates before starting', async () => {
    const { stacks } = world();

    await expect(stacks.deploy({ name: 'a', templateBody: 'Resources: [', tags: {} })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(
      stacks.deploy({
        name: 'b',
        templateBody: 'Resources:\n  X:\n    Type: AWS::SNS::Topic\n    Properties:\n      Name: !Ref Missing\n',
        tags: {},
      }),
    ).rejects.toThrow('Unresolved resource dependencies [Missing]');
    await expect(
      stacks.deploy({
        name: 'c',
        templateBody: 'Parameters:\n  P:\n    Type: String\nResources:\n  X:\n    Type: AWS::SNS::Topic\n',
        tags: {},
      }),
    ).rejects.toThrow('Parameters: [P] must have values');
    expect(await stacks.describe('a')).toBeUndefined();
  });

  it('refuses to delete a protected stack unless the caller lifts the protection, which it does just then', async () => {
    const { w, stacks } = world();
    await stacks.deploy(spec);
    w.advance(60_000);

    await expect(stacks.delete('kube-1')).rejects.toThrow(
      'Stack [kube-1] cannot be deleted while TerminationProtection is enabled',
    );
    const refused = await stacks.describe('kube-1');
    const started = await stacks.delete('kube-1', { disableTerminationProtection: true });
    const deleting = await stacks.describe('kube-1');
    w.advance(30_000);

    expect(refused?.status).toBe('CREATE_COMPLETE');
    expect(started.result).toBe('STARTED');
    expect(deleting?.status).toBe('DELETE_IN_PROGRESS');
    expect(await stacks.describe('kube-1')).toBeUndefined();
    expect(await stacks.delete('kube-1')).toEqual({ result: 'ALREADY_GONE' });
  });

  it('lists stacks by tags, `*` matching any value', async () => {
    const { stacks } = world();
    await stacks.deploy({ ...spec, name: 'a', tags: { 'kubernetes.io/cluster/x': 'owned', role: 'main' } });
    await stacks.deploy({ ...spec, name: 'b', tags: { 'kubernetes.io/cluster/x': 'owned', role: 'pool' } });
    await stacks.deploy({ ...spec, name: 'c', tags: { 'kubernetes.io/cluster/y': 'owned' } });

    const names = async (tags: Record<string, string>) => (await stacks.list(tags)).map((s) => s.name);

    expect(await names({ 'kubernetes.io/cluster/x': 'owned' })).toEqual(['a', 'b']);
    expect(await names({ role: '*' })).toEqual(['a', 'b']);
    expect(await names({ role: 'pool' })).toEqual(['b']);
  });

  it('plans Add / Modify / Remove per logical id without changing anything', async () => {
    const { w, stacks } = world();
    const subnets = await subnetsOf(w.forCluster(cluster), cluster);
    const v1 = poolTemplate({ subnets, userData: 'v1' });
    const fresh = await stacks.plan({ name: 'pool', templateBody: v1, tags: {} });
    await stacks.deploy({ name: 'pool', templateBody: v1, tags: {} });
    w.advance(60_000);
    const v2 = poolTemplate({ subnets, userData: 'v2' }).replace(
      'Outputs:',
      '  Extra:\n    Type: AWS::SNS::Topic\nOutputs:',
    );
    const before = w.snapshot();

    const changed = await stacks.plan({ name: 'pool', templateBody: v2, tags: {} });
    const removal = await stacks.plan({
      name: 'pool',
      templateBody: 'Resources:\n  Extra:\n    Type: AWS::SNS::Topic\n',
      tags: {},
    });

    expect(fresh).toEqual({
      exists: false,
      changes: [
        { action: 'Add', logicalId: 'LaunchTemplate', resourceType: 'AWS::EC2::LaunchTemplate' },
        { action: 'Add', logicalId: 'AutoScalingGroup', resourceType: 'AWS::AutoScaling::AutoScalingGroup' },
      ],
    });
    expect(changed).toEqual({
      exists: true,
      changes: [
        {
          action: 'Modify',
          logicalId: 'LaunchTemplate',
          resourceType: 'AWS::EC2::LaunchTemplate',
          replacement: 'False',
        },
        { action: 'Add', logicalId: 'Extra', resourceType: 'AWS::SNS::Topic' },
      ],
    });
    expect(removal.changes.filter((c) => c.action === 'Remove').map((c) => c.logicalId)).toEqual([
      'LaunchTemplate',
      'AutoScalingGroup',
    ]);
    expect((await stacks.describe('pool'))?.status).toBe('CREATE_COMPLETE');
    expect(w.snapshot()).toEqual({
      ...before,
      apiCalls: { ...before.apiCalls, 'stacks.plan': 3, 'stacks.describe': 1 },
    });
  });

  it('counts every call per port method', async () => {
    const { w, stacks } = world();
    await stacks.deploy(spec);
    await stacks.describe('kube-1');
    await stacks.describe('kube-1');

    expect(w.apiCalls()).toMatchObject({ 'stacks.deploy': 1, 'stacks.describe': 2 });
  });
});
