/**
 * What Kubernetes leaves in an account for Services of type LoadBalancer, made in moto the way the AWS cloud provider
 * and the AWS Load Balancer Controller make it: a security group, a classic load balancer, an ALB with a target group
 * and a listener forwarding to it — each tagged `kubernetes.io/cluster/<cluster>` = owned, none by a stack.
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
      new CreateLoadBalancerCommand({ Name: alb, Subnets: subnets, SecurityGroups: [securityGroup], Tags }),
    )
  ).LoadBalancers![0].LoadBalancerArn!;
  const targetGroup = `${prefix}-tg`;
  const tgArn = (
    await clients.elbv2.send(
      new CreateTargetGroupCommand({ Name: targetGroup, Protocol: 'HTTP', Port: 30080, VpcId: vpc, Tags }),
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
  return { securityGroup, classic, alb, targetGroup };
}
