// Decommission's cleanup over the real EC2 and ELB adapters (mocked SDK clients playing a small account), pass by
// pass: load balancers first, then their target groups and security groups, DependencyViolation retried a bounded
// number of passes; nothing of another cluster touched.
import {
  DeleteSecurityGroupCommand,
  DescribeNetworkInterfacesCommand,
  DescribeSecurityGroupsCommand,
  DescribeVolumesCommand,
  EC2Client,
  type Filter,
} from '@aws-sdk/client-ec2';
import {
  DeleteLoadBalancerCommand as DeleteClassicCommand,
  DescribeLoadBalancersCommand as DescribeClassicCommand,
  DescribeTagsCommand as DescribeClassicTagsCommand,
} from '@aws-sdk/client-elastic-load-balancing';
import {
  DeleteLoadBalancerCommand,
  DeleteTargetGroupCommand,
  DescribeLoadBalancersCommand,
  DescribeTagsCommand,
  DescribeTargetGroupsCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import 'aws-sdk-client-mock-jest';
import { Ec2ClusterLeftovers } from '../../lambdas/adapters/aws/ec2-cluster-leftovers';
import { clusterName } from '../../lambdas/core/cloudformation/stack-names';
import type { RunRecord } from '../../lambdas/core/model/run';
import type { Ports } from '../../lambdas/ports/ports';
import { cleanUpLeftovers, MAX_CLEANUP_PASSES } from '../../lambdas/tasks/clean-up-leftovers';
import {
  adapter,
  classicTagsFrom,
  CLUSTER,
  ec2,
  ec2Error,
  elb,
  elbv2,
  lbArn,
  otherTags,
  ownedTags,
  REGION,
  resetMocks,
  tgArn,
  v2Error,
  v2TagsFrom,
} from '../adapters/aws/elb-fixtures';
import { fakeEnv, seedRun, testCluster } from '../support/fakes';

beforeEach(resetMocks);

/**
 * A small account behind the mocked EC2 and ELB clients: what exists, tagged, and AWS's rules for deleting it — a
 * target group is in use while its load balancer exists, a security group while a load balancer lists it and, for
 * `drainingCalls` more DeleteSecurityGroup calls, while the load balancer's interfaces drain (DependencyViolation).
 */
function account(options: { drainingCalls: number }) {
  const classic = new Map([
    ['a0b1', { tags: ownedTags, groups: ['sg-elb'] }],
    ['other', { tags: otherTags, groups: ['sg-other'] }],
  ]);
  const v2 = new Map([
    [lbArn('k8s-web'), { name: 'k8s-web', tags: ownedTags, groups: ['sg-alb'] }],
    [lbArn('k8s-theirs'), { name: 'k8s-theirs', tags: otherTags, groups: [] as string[] }],
  ]);
  const groups = new Map([
    [tgArn('k8s-web-tg'), { name: 'k8s-web-tg', tags: ownedTags, lb: lbArn('k8s-web') }],
    [tgArn('k8s-theirs-tg'), { name: 'k8s-theirs-tg', tags: otherTags, lb: lbArn('k8s-theirs') }],
  ]);
  const securityGroups = new Map([
    ['sg-elb', ownedTags],
    ['sg-alb', ownedTags],
    ['sg-other', otherTags],
  ]);
  let draining = options.drainingCalls;
  const hasTag = (tags: { Key: string; Value: string }[], filters: Filter[] | undefined) =>
    (filters ?? []).every((f) => tags.some((t) => `tag:${t.Key}` === f.Name && f.Values?.includes(t.Value)));

  elb.on(DescribeClassicCommand).callsFake(() => ({
    LoadBalancerDescriptions: [...classic.keys()].map((n) => ({ LoadBalancerName: n })),
  }));
  elb.on(DescribeClassicTagsCommand).callsFake((input: { LoadBalancerNames: string[] }) => ({
    TagDescriptions: input.LoadBalancerNames.map((n) => ({ LoadBalancerName: n, Tags: classic.get(n)!.tags })),
  }));
  elb
    .on(DeleteClassicCommand)
    .callsFake((input: { LoadBalancerName: string }) => classic.delete(input.LoadBalancerName) && {});
  elbv2.on(DescribeLoadBalancersCommand).callsFake(() => ({
    LoadBalancers: [...v2].map(([arn, lb]) => ({ LoadBalancerArn: arn, LoadBalancerName: lb.name })),
  }));
  elbv2.on(DescribeTargetGroupsCommand).callsFake(() => ({
    TargetGroups: [...groups].map(([arn, tg]) => ({ TargetGroupArn: arn, TargetGroupName: tg.name })),
  }));
  elbv2.on(DescribeTagsCommand).callsFake((input: { ResourceArns: string[] }) => ({
    TagDescriptions: input.ResourceArns.map((a) => ({ ResourceArn: a, Tags: (v2.get(a) ?? groups.get(a))!.tags })),
  }));
  elbv2.on(DeleteLoadBalancerCommand).callsFake((input: { LoadBalancerArn: string }) => {
    v2.delete(input.LoadBalancerArn);
    return {};
  });
  elbv2.on(DeleteTargetGroupCommand).callsFake((input: { TargetGroupArn: string }) => {
    if (v2.has(groups.get(input.TargetGroupArn)!.lb)) throw v2Error('ResourceInUseException', 'in use by a listener');
    groups.delete(input.TargetGroupArn);
    return {};
  });
  ec2.on(DescribeVolumesCommand).resolves({});
  ec2.on(DescribeNetworkInterfacesCommand).resolves({});
  ec2.on(DescribeSecurityGroupsCommand).callsFake((input: { Filters?: Filter[] }) => ({
    SecurityGroups: [...securityGroups]
      .filter(([, tags]) => hasTag(tags, input.Filters))
      .map(([id, Tags]) => ({ GroupId: id, Tags })),
  }));
  ec2.on(DeleteSecurityGroupCommand).callsFake((input: { GroupId: string }) => {
    const lbs = [...classic.values(), ...v2.values()];
    if (lbs.some((lb) => lb.groups.includes(input.GroupId)) || draining-- > 0)
      throw ec2Error('DependencyViolation', `resource ${input.GroupId} has a dependent object`);
    securityGroups.delete(input.GroupId);
    return {};
  });
  return { classic, v2, groups, securityGroups };
}

/** The cleanup task over the real adapters: fake run store and clock, the mocked clients above. */
async function decommission() {
  const cluster = testCluster();
  expect(clusterName(cluster)).toBe(CLUSTER);
  const env = fakeEnv({ clusters: [cluster] });
  const run: RunRecord = await seedRun(env, cluster, {
    targetVersion: 'decommission#1',
    holder: 'exec-1',
    action: 'decommission',
  });
  const leftovers = new Ec2ClusterLeftovers(new EC2Client(REGION), adapter());
  const ports: Ports = { ...env.ports, forCluster: (c) => ({ ...env.ports.forCluster(c), leftovers }) };
  const ref = { clusterId: run.clusterId, targetVersion: run.targetVersion, holder: run.holder };
  const outputs = [];
  for (let call = 0; call <= MAX_CLEANUP_PASSES; call++) {
    const out = await cleanUpLeftovers(ref, ports);
    outputs.push(out);
    if (out.status === 'DONE') break;
  }
  return { outputs, record: (await env.progress.getRun(ref.clusterId, ref.targetVersion))!.leftovers! };
}

describe('cleanUpLeftovers over the EC2 and ELB adapters', () => {
  it('deletes the load balancers, then their target group and security groups once DependencyViolation clears; another cluster keeps its own', async () => {
    // Arrange: the groups stay in use for 2 DeleteSecurityGroup calls after the load balancers are gone
    const world = account({ drainingCalls: 2 });

    // Act
    const { outputs, record } = await decommission();

    // Assert
    expect(outputs.map((o) => o.status)).toEqual(['IN_PROGRESS', 'IN_PROGRESS', 'DONE']);
    expect(record.deleted).toEqual([
      'classic-load-balancer a0b1',
      'load-balancer k8s-web',
      'target-group k8s-web-tg',
      'security-group sg-alb',
      'security-group sg-elb',
    ]);
    expect(record).toMatchObject({ remaining: [], unchecked: [], passes: 3 });
    expect([...world.classic.keys()]).toEqual(['other']);
    expect([...world.v2.values()].map((lb) => lb.name)).toEqual(['k8s-theirs']);
    expect([...world.groups.values()].map((tg) => tg.name)).toEqual(['k8s-theirs-tg']);
    expect([...world.securityGroups.keys()]).toEqual(['sg-other']);
    expect(elb).not.toHaveReceivedCommandWith(DeleteClassicCommand, { LoadBalancerName: 'other' });
    expect(elbv2).not.toHaveReceivedCommandWith(DeleteLoadBalancerCommand, { LoadBalancerArn: lbArn('k8s-theirs') });
    expect(outputs.at(-1)!.message).toContain('Deleted classic-load-balancer a0b1, load-balancer k8s-web');
  });

  it('gives up on a security group that stays in use after MAX_CLEANUP_PASSES passes, naming it', async () => {
    account({ drainingCalls: Number.MAX_SAFE_INTEGER });

    const { outputs, record } = await decommission();

    expect(outputs).toHaveLength(MAX_CLEANUP_PASSES);
    expect(outputs.at(-1)!.status).toBe('DONE');
    expect(record.remaining).toEqual(['security-group sg-alb', 'security-group sg-elb']);
    // Deleted once the load balancers were gone: once per pass from the second on, never more
    expect(ec2).toHaveReceivedCommandTimes(DeleteSecurityGroupCommand, 2 * (MAX_CLEANUP_PASSES - 1));
    expect(outputs.at(-1)!.message).toContain(
      `still in use after ${MAX_CLEANUP_PASSES} passes, left: security-group sg-alb, security-group sg-elb`,
    );
  });

  it('nothing owned: nothing deleted, nothing unchecked', async () => {
    // Arrange: only another cluster's load balancers, target groups and security groups
    elb.on(DescribeClassicCommand).resolves({ LoadBalancerDescriptions: [{ LoadBalancerName: 'other' }] });
    classicTagsFrom({ other: otherTags });
    elbv2.on(DescribeLoadBalancersCommand).resolves({
      LoadBalancers: [{ LoadBalancerName: 'k8s-theirs', LoadBalancerArn: lbArn('k8s-theirs') }],
    });
    elbv2.on(DescribeTargetGroupsCommand).resolves({});
    v2TagsFrom({ [lbArn('k8s-theirs')]: otherTags });
    ec2.on(DescribeVolumesCommand).resolves({});
    ec2.on(DescribeNetworkInterfacesCommand).resolves({});
    ec2.on(DescribeSecurityGroupsCommand).resolves({});

    // Act
    const { outputs, record } = await decommission();

    // Assert
    expect(outputs).toEqual([{ status: 'DONE', waitSeconds: 1, message: 'Nothing left behind to delete' }]);
    expect(record).toMatchObject({ deleted: [], remaining: [], unchecked: [] });
    expect(elb).toHaveReceivedCommandTimes(DeleteClassicCommand, 0);
    expect(elbv2).toHaveReceivedCommandTimes(DeleteLoadBalancerCommand, 0);
    expect(elbv2).toHaveReceivedCommandTimes(DeleteTargetGroupCommand, 0);
    expect(ec2).toHaveReceivedCommandTimes(DeleteSecurityGroupCommand, 0);
  });
});
