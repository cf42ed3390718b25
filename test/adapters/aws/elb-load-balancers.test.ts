// ElbLoadBalancers: the classic and v2 load balancers and target groups a cluster's Kubernetes made, found by the
// cluster's tags (the cloud provider's and the AWS Load Balancer Controller's; DescribeTags 20 at a time), deleted by
// name or ARN.
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
import {
  adapter,
  CLUSTER,
  classicError,
  classicTagsFrom,
  controllerTags,
  elb,
  elbv2,
  lbArn,
  otherControllerTags,
  otherTags,
  OWNED,
  ownedTags,
  resetMocks,
  stackTags,
  tgArn,
  v2Error,
  v2TagsFrom,
} from './elb-fixtures';

beforeEach(resetMocks);

describe('ElbLoadBalancers.listOwned', () => {
  it('pages through the classic load balancers and asks their tags 20 at a time; only the owned, none a stack made', async () => {
    // Arrange: 45 load balancers over two pages; 3 owned, one of them by a stack, one another cluster's
    const names = Array.from({ length: 45 }, (_, i) => `a${String(i).padStart(2, '0')}`);
    elb
      .on(DescribeClassicCommand)
      .resolvesOnce({
        LoadBalancerDescriptions: names.slice(0, 30).map((n) => ({ LoadBalancerName: n })),
        NextMarker: 'm2',
      })
      .resolves({ LoadBalancerDescriptions: names.slice(30).map((n) => ({ LoadBalancerName: n })) });
    classicTagsFrom({ a03: ownedTags, a21: ownedTags, a40: ownedTags, a41: stackTags, a42: otherTags });
    elbv2.on(DescribeLoadBalancersCommand).resolves({});
    elbv2.on(DescribeTargetGroupsCommand).resolves({});

    // Act
    const found = await adapter().listOwned(OWNED);

    // Assert
    expect(found).toEqual([
      { kind: 'classic-load-balancer', id: 'a03' },
      { kind: 'classic-load-balancer', id: 'a21' },
      { kind: 'classic-load-balancer', id: 'a40' },
    ]);
    expect(elb).toHaveReceivedCommandTimes(DescribeClassicCommand, 2);
    expect(elb).toHaveReceivedNthCommandWith(2, DescribeClassicCommand, { Marker: 'm2' });
    const batches = elb.commandCalls(DescribeClassicTagsCommand).map((c) => c.args[0].input.LoadBalancerNames);
    expect(batches).toEqual([names.slice(0, 20), names.slice(20, 40), names.slice(40)]);
    // Nothing is asked of v2 tags when there is nothing v2
    expect(elbv2).toHaveReceivedCommandTimes(DescribeTagsCommand, 0);
  });

  it('finds the owned ALBs/NLBs and target groups by ARN, across pages, 20 ARNs a call', async () => {
    // Arrange: 15 load balancers and 15 target groups: 30 ARNs, so two DescribeTags calls
    const lbs = Array.from({ length: 15 }, (_, i) => `k8s-lb-${i}`);
    const tgs = Array.from({ length: 15 }, (_, i) => `k8s-tg-${i}`);
    elbv2
      .on(DescribeLoadBalancersCommand)
      .resolvesOnce({
        LoadBalancers: lbs.slice(0, 10).map((n) => ({ LoadBalancerName: n, LoadBalancerArn: lbArn(n) })),
        NextMarker: 'p2',
      })
      .resolves({ LoadBalancers: lbs.slice(10).map((n) => ({ LoadBalancerName: n, LoadBalancerArn: lbArn(n) })) });
    elbv2
      .on(DescribeTargetGroupsCommand)
      .resolves({ TargetGroups: tgs.map((n) => ({ TargetGroupName: n, TargetGroupArn: tgArn(n) })) });
    const tags = Object.fromEntries([...lbs.map(lbArn), ...tgs.map(tgArn)].map((a) => [a, otherTags]));
    v2TagsFrom({
      ...tags,
      [lbArn('k8s-lb-2')]: ownedTags,
      [lbArn('k8s-lb-12')]: ownedTags,
      [tgArn('k8s-tg-14')]: ownedTags,
    });
    elb.on(DescribeClassicCommand).resolves({});

    // Act
    const found = await adapter().listOwned(OWNED);

    // Assert
    expect(found).toEqual([
      { kind: 'load-balancer', id: 'k8s-lb-2', arn: lbArn('k8s-lb-2') },
      { kind: 'load-balancer', id: 'k8s-lb-12', arn: lbArn('k8s-lb-12') },
      { kind: 'target-group', id: 'k8s-tg-14', arn: tgArn('k8s-tg-14') },
    ]);
    expect(elbv2).toHaveReceivedNthCommandWith(2, DescribeLoadBalancersCommand, { Marker: 'p2' });
    expect(elbv2.commandCalls(DescribeTagsCommand).map((c) => c.args[0].input.ResourceArns!.length)).toEqual([20, 10]);
  });

  it("finds what the AWS Load Balancer Controller made by its elbv2.k8s.aws/cluster tag, not another cluster's", async () => {
    // Arrange: the controller tags no kubernetes.io/cluster/<name>; one ALB and its target group are ours
    elb.on(DescribeClassicCommand).resolves({});
    elbv2.on(DescribeLoadBalancersCommand).resolves({
      LoadBalancers: ['k8s-default-web', 'k8s-other-web'].map((n) => ({
        LoadBalancerName: n,
        LoadBalancerArn: lbArn(n),
      })),
    });
    elbv2.on(DescribeTargetGroupsCommand).resolves({
      TargetGroups: ['k8s-default-web-tg', 'k8s-other-web-tg'].map((n) => ({
        TargetGroupName: n,
        TargetGroupArn: tgArn(n),
      })),
    });
    v2TagsFrom({
      [lbArn('k8s-default-web')]: controllerTags,
      [tgArn('k8s-default-web-tg')]: controllerTags,
      [lbArn('k8s-other-web')]: otherControllerTags,
      [tgArn('k8s-other-web-tg')]: otherControllerTags,
    });

    // Act
    const found = await adapter().listOwned(OWNED);

    // Assert
    expect(found).toEqual([
      { kind: 'load-balancer', id: 'k8s-default-web', arn: lbArn('k8s-default-web') },
      { kind: 'target-group', id: 'k8s-default-web-tg', arn: tgArn('k8s-default-web-tg') },
    ]);
  });

  it('skips a load balancer deleted between the listing and its tags (the batch is asked again one by one)', async () => {
    // Arrange: k8s-gone is listed, then gone: a batch naming it is refused
    elb.on(DescribeClassicCommand).resolves({});
    elbv2.on(DescribeLoadBalancersCommand).resolves({
      LoadBalancers: ['k8s-a', 'k8s-gone', 'k8s-b'].map((n) => ({ LoadBalancerName: n, LoadBalancerArn: lbArn(n) })),
    });
    elbv2.on(DescribeTargetGroupsCommand).resolves({});
    v2TagsFrom({ [lbArn('k8s-a')]: ownedTags, [lbArn('k8s-b')]: ownedTags });

    // Act
    const found = await adapter().listOwned(OWNED);

    // Assert
    expect(found.map((f) => f.id)).toEqual(['k8s-a', 'k8s-b']);
  });

  it('names the tags when ELB refuses the listing', async () => {
    elb.on(DescribeClassicCommand).rejects(classicError('AccessDenied', 'not authorized to DescribeLoadBalancers'));

    await expect(adapter().listOwned(OWNED)).rejects.toThrow(
      `ELB listing the classic load balancers tagged kubernetes.io/cluster/${CLUSTER}=owned or elbv2.k8s.aws/cluster=${CLUSTER}: AccessDenied: not authorized to DescribeLoadBalancers`,
    );
  });
});

describe('ElbLoadBalancers.delete', () => {
  it('deletes a classic load balancer by name, a v2 one and a target group by ARN', async () => {
    elb.on(DeleteClassicCommand).resolves({});
    elbv2.on(DeleteLoadBalancerCommand).resolves({});
    elbv2.on(DeleteTargetGroupCommand).resolves({});
    const lbs = adapter();

    expect(await lbs.delete({ kind: 'classic-load-balancer', id: 'a0b1' })).toBe('deleted');
    expect(await lbs.delete({ kind: 'load-balancer', id: 'k8s-web', arn: lbArn('k8s-web') })).toBe('deleted');
    expect(await lbs.delete({ kind: 'target-group', id: 'k8s-tg', arn: tgArn('k8s-tg') })).toBe('deleted');
    expect(elb).toHaveReceivedCommandWith(DeleteClassicCommand, { LoadBalancerName: 'a0b1' });
    expect(elbv2).toHaveReceivedCommandWith(DeleteLoadBalancerCommand, { LoadBalancerArn: lbArn('k8s-web') });
    expect(elbv2).toHaveReceivedCommandWith(DeleteTargetGroupCommand, { TargetGroupArn: tgArn('k8s-tg') });
  });

  it.each([
    ['target-group', 'ResourceInUseException', 'in-use', DeleteTargetGroupCommand],
    ['target-group', 'TargetGroupNotFoundException', 'gone', DeleteTargetGroupCommand],
    ['load-balancer', 'LoadBalancerNotFoundException', 'gone', DeleteLoadBalancerCommand],
  ] as const)('%s refused with %s is %s', async (kind, code, result, command) => {
    elbv2.on(command as never).rejects(v2Error(code, 'refused'));

    await expect(adapter().delete({ kind, id: 'x', arn: tgArn('x') })).resolves.toBe(result);
  });

  it('any other refusal is an error naming the load balancer (deletion protection)', async () => {
    elbv2
      .on(DeleteLoadBalancerCommand)
      .rejects(v2Error('OperationNotPermittedException', 'Load balancer has deletion protection enabled'));

    await expect(adapter().delete({ kind: 'load-balancer', id: 'k8s-web', arn: lbArn('k8s-web') })).rejects.toThrow(
      `ELB deleting load-balancer k8s-web (${lbArn('k8s-web')}): OperationNotPermittedException: Load balancer has deletion protection enabled`,
    );
  });
});
