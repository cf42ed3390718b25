/**
 * What Kubernetes leaves in an account for Services of type LoadBalancer and Ingresses, made in moto the way they make
 * it: the AWS cloud provider's classic load balancer and its security group, tagged `kubernetes.io/cluster/<cluster>`
 * = owned; the AWS Load Balancer Controller's ALB, its security group, a target group and a listener forwarding to
 * it, tagged only `elbv2.k8s.aws/cluster` = <cluster> (the controller's own key). None by a stack.
 */
import { CreateSecurityGroupCommand, DescribeSubnetsCommand, DescribeVpcsCommand } from '@aws-sdk/client-ec2';
import { CreateLoadBalancerCommand as CreateClassicCommand } from '@aws-sdk/client-elastic-load-balancing';
import {
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  CreateTargetGroupCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { AwsClients } from '../../../lambdas/adapters/aws/aws-clients';

export interface KubernetesLoadBalancers {
  readonly securityGroup: string;
  /** The ALB's, made by the controller. */
  readonly albSecurityGroup: string;
  readonly classic: string;
  readonly alb: string;
  readonly targetGroup: string;
}

/** Makes them in the default VPC, named after `prefix`; returns their names (`kind id` as decommission lists them). */
export async function createKubernetesLoadBalancers(
  clients: Pick<AwsClients, 'ec2' | 'elb' | 'elbv2'>,
  cluster: string,
  prefix: string,
): Promise<KubernetesLoadBalancers> {
  const Tags = [{ Key: `kubernetes.io/cluster/${cluster}`, Value: 'owned' }];
  const controllerTags = [
    { Key: 'elbv2.k8s.aws/cluster', Value: cluster },
    { Key: 'ingress.k8s.aws/stack', Value: `default/${prefix}` },
  ];
  const vpc = (await clients.ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'is-default', Values: ['true'] }] })))
    .Vpcs?.[0]?.VpcId;
  if (!vpc) throw new Error('moto has no default VPC');
  const subnets = (await clients.ec2.send(new DescribeSubnetsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpc] }] })))
    .Subnets!.map((s) => s.SubnetId!)
    .slice(0, 2);
  const securityGroup = (
    await clients.ec2.send(
      new CreateSecurityGroupCommand({
        GroupName: `k8s-elb-${prefix}`,
        Description: `Security group for Kubernetes ELB ${prefix}`,
        VpcId: vpc,
        TagSpecifications: [{ ResourceType: 'security-group', Tags }],
      }),
    )
  ).GroupId!;
  const albSecurityGroup = (
    await clients.ec2.send(
      new CreateSecurityGroupCommand({
        GroupName: `k8s-default-${prefix}`,
        Description: '[k8s] Managed SecurityGroup for LoadBalancer',
        VpcId: vpc,
        TagSpecifications: [{ ResourceType: 'security-group', Tags: controllerTags }],
      }),
    )
  ).GroupId!;
  const classic = `${prefix}-classic`;
  await clients.elb.send(
    new CreateClassicCommand({
      LoadBalancerName: classic,
      Listeners: [{ Protocol: 'TCP', LoadBalancerPort: 80, InstancePort: 30080 }],
      Subnets: subnets,
      SecurityGroups: [securityGroup],
      Tags,
    }),
  );
  const alb = `${prefix}-alb`;
  const albArn = (
    await clients.elbv2.send(
      new CreateLoadBalancerCommand({
        Name: alb,
        Subnets: subnets,
        SecurityGroups: [albSecurityGroup],
        Tags: controllerTags,
      }),
    )
  ).LoadBalancers![0].LoadBalancerArn!;
  const targetGroup = `${prefix}-tg`;
  const tgArn = (
    await clients.elbv2.send(
      new CreateTargetGroupCommand({
        Name: targetGroup,
        Protocol: 'HTTP',
        Port: 30080,
        VpcId: vpc,
        Tags: controllerTags,
      }),
    )
  ).TargetGroups![0].TargetGroupArn!;
  await clients.elbv2.send(
    new CreateListenerCommand({
      LoadBalancerArn: albArn,
      Protocol: 'HTTP',
      Port: 80,
      DefaultActions: [{ Type: 'forward', TargetGroupArn: tgArn }],
    }),
  );
  return { securityGroup, albSecurityGroup, classic, alb, targetGroup };
}
