/** Mocked ELB and EC2 clients and what the load balancer tests share (elb-load-balancers, clean-up-leftovers-on-aws). */
import { EC2Client, EC2ServiceException } from '@aws-sdk/client-ec2';
import {
  DescribeTagsCommand as DescribeClassicTagsCommand,
  ElasticLoadBalancingClient,
  ElasticLoadBalancingServiceException,
} from '@aws-sdk/client-elastic-load-balancing';
import {
  DescribeTagsCommand,
  ElasticLoadBalancingV2Client,
  ElasticLoadBalancingV2ServiceException,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { mockClient } from 'aws-sdk-client-mock';
import { DESCRIBE_TAGS_BATCH, ElbLoadBalancers } from '../../../lambdas/adapters/aws/elb-load-balancers';
import { ownedTags as clusterTags } from '../../../lambdas/core/decommission/leftovers';

export const elb = mockClient(ElasticLoadBalancingClient);
export const elbv2 = mockClient(ElasticLoadBalancingV2Client);
export const ec2 = mockClient(EC2Client);
export const REGION = { region: 'eu-central-1' };
export const CLUSTER = 'aws:123456789012:eu-central-1:kube-1';
/** The cluster's tags: the cloud provider's `kubernetes.io/cluster/<name>`, the AWS Load Balancer Controller's. */
export const OWNED = clusterTags(CLUSTER);
export const ownedTags = [{ Key: `kubernetes.io/cluster/${CLUSTER}`, Value: 'owned' }];
/** What the AWS Load Balancer Controller tags its load balancers, target groups and security groups with. */
export const controllerTags = [
  { Key: 'elbv2.k8s.aws/cluster', Value: CLUSTER },
  { Key: 'ingress.k8s.aws/stack', Value: 'default/web' },
];
export const otherTags = [{ Key: 'kubernetes.io/cluster/aws:123456789012:eu-central-1:kube-2', Value: 'owned' }];
export const otherControllerTags = [{ Key: 'elbv2.k8s.aws/cluster', Value: 'aws:123456789012:eu-central-1:kube-2' }];
export const stackTags = [
  ...ownedTags,
  { Key: 'aws:cloudformation:stack-id', Value: 'arn:aws:cloudformation:x:1:stack/k/1' },
];
export const lbArn = (name: string) =>
  `arn:aws:elasticloadbalancing:eu-central-1:123456789012:loadbalancer/app/${name}/1f2e`;
export const tgArn = (name: string) =>
  `arn:aws:elasticloadbalancing:eu-central-1:123456789012:targetgroup/${name}/3d4c`;

export const v2Error = (name: string, message: string) =>
  new ElasticLoadBalancingV2ServiceException({ name, message, $fault: 'client', $metadata: { httpStatusCode: 400 } });
export const classicError = (name: string, message: string) =>
  new ElasticLoadBalancingServiceException({ name, message, $fault: 'client', $metadata: { httpStatusCode: 400 } });
export const ec2Error = (name: string, message: string) =>
  new EC2ServiceException({ name, message, $fault: 'client', $metadata: { httpStatusCode: 400 } });

export const adapter = () =>
  new ElbLoadBalancers(new ElasticLoadBalancingClient(REGION), new ElasticLoadBalancingV2Client(REGION));

/** Classic DescribeTags answered from `tags` by name, as ELB does (at most 20 names, or it refuses). */
export function classicTagsFrom(tags: Record<string, { Key: string; Value: string }[]>) {
  elb.on(DescribeClassicTagsCommand).callsFake((input: { LoadBalancerNames: string[] }) => {
    if (input.LoadBalancerNames.length > DESCRIBE_TAGS_BATCH)
      throw classicError('ValidationError', 'LoadBalancerNames: at most 20');
    return { TagDescriptions: input.LoadBalancerNames.map((n) => ({ LoadBalancerName: n, Tags: tags[n] ?? [] })) };
  });
}

/** v2 DescribeTags answered from `tags` by ARN (at most 20 ARNs). */
export function v2TagsFrom(tags: Record<string, { Key: string; Value: string }[]>) {
  elbv2.on(DescribeTagsCommand).callsFake((input: { ResourceArns: string[] }) => {
    if (input.ResourceArns.length > DESCRIBE_TAGS_BATCH) throw v2Error('ValidationError', 'ResourceArns: at most 20');
    const missing = input.ResourceArns.find((a) => !(a in tags));
    if (missing) throw v2Error('LoadBalancerNotFoundException', `'${missing}' not found`);
    return { TagDescriptions: input.ResourceArns.map((a) => ({ ResourceArn: a, Tags: tags[a] })) };
  });
}

export function resetMocks(): void {
  elb.reset();
  elbv2.reset();
  ec2.reset();
}
