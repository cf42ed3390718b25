/**
 * LoadBalancerApi on the ELB APIs: the classic load balancers the AWS cloud provider makes for Services of type
 * LoadBalancer, and the v2 ones (ALB/NLB) with their target groups that the cloud provider (NLB) or the AWS Load
 * Balancer Controller make — each found by one of the cluster's tags (`kubernetes.io/cluster/<Name()>` = owned from the
 * cloud provider, `elbv2.k8s.aws/cluster` = <Name()> from the controller), never one a CloudFormation stack created
 * (tag `aws:cloudformation:stack-id`).
 *
 * Calls: find = classic DescribeLoadBalancers + v2 DescribeLoadBalancers + DescribeTargetGroups (each paged), and
 * DescribeTags for each 20 names or ARNs (the most both APIs take in one call); delete = one Delete* call. Deleting a
 * v2 load balancer deletes its listeners but not its target groups: they are leftovers of their own, deleted after it
 * (ResourceInUse until then: `in-use`, the next pass tries again). The security groups Kubernetes made for a load
 * balancer are EC2's (ec2-cluster-leftovers.ts), deleted once no load balancer is left.
 */
import {
  DeleteLoadBalancerCommand as DeleteClassicCommand,
  DescribeTagsCommand as DescribeClassicTagsCommand,
  paginateDescribeLoadBalancers as paginateClassic,
} from '@aws-sdk/client-elastic-load-balancing';
import type { ElasticLoadBalancingClient, Tag as ClassicTag } from '@aws-sdk/client-elastic-load-balancing';
import {
  DeleteLoadBalancerCommand,
  DeleteTargetGroupCommand,
  DescribeTagsCommand,
  paginateDescribeLoadBalancers,
  paginateDescribeTargetGroups,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { ElasticLoadBalancingV2Client, Tag } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { Leftover, OwnedTag } from '../../core/decommission/leftovers';
import { awsErrorName, toClmError } from './aws-errors';
import { CFN_STACK_ID_TAG, type LoadBalancerApi } from './ec2-cluster-leftovers';

/** DescribeTags takes at most 20 load balancer names (classic) or resource ARNs (v2) per call. */
export const DESCRIBE_TAGS_BATCH = 20;

/** Classic: the name is gone (AccessPointNotFound); v2: the load balancer or target group is gone. */
const NOT_FOUND = new Set([
  'AccessPointNotFoundException',
  'LoadBalancerNotFound',
  'LoadBalancerNotFoundException',
  'TargetGroupNotFound',
  'TargetGroupNotFoundException',
]);
/** A target group a listener still forwards to; a load balancer another resource still uses. */
const IN_USE = new Set(['ResourceInUse', 'ResourceInUseException']);

const owns = (tags: readonly (Tag | ClassicTag)[] | undefined, owned: readonly OwnedTag[]) =>
  (tags ?? []).some((t) => owned.some((tag) => t.Key === tag.key && t.Value === tag.value)) &&
  !(tags ?? []).some((t) => t.Key === CFN_STACK_ID_TAG);

const described = (owned: readonly OwnedTag[]) => owned.map((t) => `${t.key}=${t.value}`).join(' or ');

function batches<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += DESCRIBE_TAGS_BATCH) out.push(items.slice(i, i + DESCRIBE_TAGS_BATCH));
  return out;
}

export class ElbLoadBalancers implements LoadBalancerApi {
  constructor(
    private readonly elb: ElasticLoadBalancingClient,
    private readonly elbv2: ElasticLoadBalancingV2Client,
  ) {}

  async listOwned(owned: readonly OwnedTag[]): Promise<Leftover[]> {
    return [...(await this.classicOwned(owned)), ...(await this.v2Owned(owned))];
  }

  async delete(item: Leftover): Promise<'deleted' | 'gone' | 'in-use'> {
    try {
      if (item.kind === 'classic-load-balancer')
        await this.elb.send(new DeleteClassicCommand({ LoadBalancerName: item.id }));
      else if (item.kind === 'load-balancer')
        await this.elbv2.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: this.arnOf(item) }));
      else if (item.kind === 'target-group')
        await this.elbv2.send(new DeleteTargetGroupCommand({ TargetGroupArn: this.arnOf(item) }));
      else throw new Error(`${item.kind} ${item.id} is not a load balancer or target group`);
      return 'deleted';
    } catch (error) {
      const name = awsErrorName(error);
      if (NOT_FOUND.has(name)) return 'gone';
      if (IN_USE.has(name)) return 'in-use';
      throw toClmError(error, `ELB deleting ${item.kind} ${item.id}${item.arn ? ` (${item.arn})` : ''}`);
    }
  }

  private arnOf(item: Leftover): string {
    if (!item.arn) throw new Error(`${item.kind} ${item.id} has no ARN to delete it by`);
    return item.arn;
  }

  private async classicOwned(owned: readonly OwnedTag[]): Promise<Leftover[]> {
    try {
      const names: string[] = [];
      for await (const page of paginateClassic({ client: this.elb }, {}))
        for (const lb of page.LoadBalancerDescriptions ?? []) if (lb.LoadBalancerName) names.push(lb.LoadBalancerName);
      const found: Leftover[] = [];
      for (const batch of batches(names)) {
        const tags = await this.classicTags(batch);
        for (const name of batch)
          if (owns(tags.get(name), owned)) found.push({ kind: 'classic-load-balancer', id: name });
      }
      return found;
    } catch (error) {
      throw toClmError(error, `ELB listing the classic load balancers tagged ${described(owned)}`);
    }
  }

  /** Tags by name; a name deleted since the listing makes the batch fail, so the batch is asked again one by one. */
  private async classicTags(names: readonly string[]): Promise<Map<string, ClassicTag[]>> {
    const tags = new Map<string, ClassicTag[]>();
    try {
      const out = await this.elb.send(new DescribeClassicTagsCommand({ LoadBalancerNames: [...names] }));
      for (const d of out.TagDescriptions ?? []) if (d.LoadBalancerName) tags.set(d.LoadBalancerName, d.Tags ?? []);
    } catch (error) {
      if (!NOT_FOUND.has(awsErrorName(error))) throw error;
      if (names.length === 1) return tags;
      for (const name of names) for (const [n, t] of await this.classicTags([name])) tags.set(n, t);
    }
    return tags;
  }

  private async v2Owned(owned: readonly OwnedTag[]): Promise<Leftover[]> {
    try {
      const lbs = new Map<string, string>();
      for await (const page of paginateDescribeLoadBalancers({ client: this.elbv2 }, {}))
        for (const lb of page.LoadBalancers ?? [])
          if (lb.LoadBalancerArn && lb.LoadBalancerName) lbs.set(lb.LoadBalancerArn, lb.LoadBalancerName);
      const groups = new Map<string, string>();
      for await (const page of paginateDescribeTargetGroups({ client: this.elbv2 }, {}))
        for (const tg of page.TargetGroups ?? [])
          if (tg.TargetGroupArn && tg.TargetGroupName) groups.set(tg.TargetGroupArn, tg.TargetGroupName);
      const ours = await this.v2OwnedArns([...lbs.keys(), ...groups.keys()], owned);
      const pick = (names: Map<string, string>, kind: 'load-balancer' | 'target-group') =>
        [...names].filter(([arn]) => ours.has(arn)).map(([arn, id]): Leftover => ({ kind, id, arn }));
      return [...pick(lbs, 'load-balancer'), ...pick(groups, 'target-group')];
    } catch (error) {
      throw toClmError(error, `ELB listing the load balancers and target groups tagged ${described(owned)}`);
    }
  }

  /** The ARNs among `arns` carrying one of the tags; one deleted since the listing is skipped (asked one by one). */
  private async v2OwnedArns(arns: readonly string[], owned: readonly OwnedTag[]): Promise<Set<string>> {
    const ours = new Set<string>();
    for (const batch of batches(arns)) {
      try {
        const out = await this.elbv2.send(new DescribeTagsCommand({ ResourceArns: batch }));
        for (const d of out.TagDescriptions ?? []) if (d.ResourceArn && owns(d.Tags, owned)) ours.add(d.ResourceArn);
      } catch (error) {
        if (!NOT_FOUND.has(awsErrorName(error))) throw error;
        if (batch.length === 1) continue;
        for (const arn of batch) for (const a of await this.v2OwnedArns([arn], owned)) ours.add(a);
      }
    }
    return ours;
  }
}
