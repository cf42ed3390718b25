/**
 * ClusterLeftovers on EC2 (volumes, security groups, network interfaces) and, when given, the load balancer APIs
 * (elb-load-balancers.ts: classic and v2 load balancers, target groups).
 *
 * Calls: find = DescribeVolumes + 2×DescribeSecurityGroups (the cloud provider's tag, the AWS Load Balancer
 * Controller's) + 2×DescribeNetworkInterfaces (each paged, filtered by tag server-side) + the load balancers' listing;
 * delete = one Delete* call. Resources a CloudFormation stack created
 * (tag `aws:cloudformation:stack-id`) are never listed: their stacks delete them. Interfaces AWS manages for a
 * service (RequesterManaged, e.g. a load balancer's) are not listed either: they go with their owner.
 */
import {
  DeleteNetworkInterfaceCommand,
  DeleteSecurityGroupCommand,
  DeleteVolumeCommand,
  paginateDescribeNetworkInterfaces,
  paginateDescribeSecurityGroups,
  paginateDescribeVolumes,
} from './ec2-api';
import type { EC2Client, Filter, Tag } from '@aws-sdk/client-ec2';
import {
  CNI_CLUSTER_TAG,
  ownedTag,
  ownedTags,
  type Leftover,
  type LeftoverKind,
  type OwnedTag,
} from '../../core/decommission/leftovers';
import type { ClusterLeftovers, LeftoverScan } from '../../ports/cluster-leftovers';
import { awsErrorName, toClmError } from './aws-errors';

/** Set by CloudFormation on every resource of a stack. */
export const CFN_STACK_ID_TAG = 'aws:cloudformation:stack-id';

/** The load balancers of a cluster (classic and v2) and the v2 ones' target groups, behind the ELB APIs. */
export interface LoadBalancerApi {
  /** Load balancers and target groups carrying one of `tags` and no `aws:cloudformation:stack-id` tag. */
  listOwned(tags: readonly OwnedTag[]): Promise<Leftover[]>;
  delete(item: Leftover): Promise<'deleted' | 'gone' | 'in-use'>;
}

/** The kinds the load balancer API finds and deletes. */
const LOAD_BALANCER_KINDS: readonly LeftoverKind[] = ['classic-load-balancer', 'load-balancer', 'target-group'];

const NOT_FOUND: Partial<Record<LeftoverKind, readonly string[]>> = {
  volume: ['InvalidVolume.NotFound'],
  'security-group': ['InvalidGroup.NotFound', 'InvalidGroupId.NotFound'],
  'network-interface': ['InvalidNetworkInterfaceID.NotFound'],
};
const IN_USE: Partial<Record<LeftoverKind, readonly string[]>> = {
  volume: ['VolumeInUse', 'IncorrectState'],
  'security-group': ['DependencyViolation', 'InvalidGroup.InUse'],
  'network-interface': ['InvalidNetworkInterface.InUse', 'InvalidParameterValue'],
};

const notFromStack = (tags: readonly Tag[] | undefined) => !(tags ?? []).some((t) => t.Key === CFN_STACK_ID_TAG);

export class Ec2ClusterLeftovers implements ClusterLeftovers {
  constructor(
    private readonly ec2: EC2Client,
    /** @default - load balancers are not looked for (reported as unchecked) */
    private readonly loadBalancers?: LoadBalancerApi,
  ) {}

  async find(clusterName: string): Promise<LeftoverScan> {
    const tags = ownedTags(clusterName);
    // Volumes and interfaces carry only the cloud provider's tag; the load balancer controller makes neither.
    const tag = ownedTag(clusterName);
    const filter = (t: OwnedTag): Filter[] => [{ Name: `tag:${t.key}`, Values: [t.value] }];
    const owned = filter(tag);
    const found: Leftover[] = [];
    try {
      for await (const page of paginateDescribeVolumes({ client: this.ec2 }, { Filters: owned }))
        for (const v of page.Volumes ?? [])
          if (v.VolumeId && notFromStack(v.Tags) && v.State !== 'deleting' && v.State !== 'deleted')
            found.push({ kind: 'volume', id: v.VolumeId, state: v.State ?? 'unknown' });
      const groups = new Set<string>();
      for (const t of tags)
        for await (const page of paginateDescribeSecurityGroups({ client: this.ec2 }, { Filters: filter(t) }))
          for (const g of page.SecurityGroups ?? []) if (g.GroupId && notFromStack(g.Tags)) groups.add(g.GroupId);
      found.push(...[...groups].map((id): Leftover => ({ kind: 'security-group', id })));
      const interfaces = new Map<string, Leftover>();
      for (const Filters of [owned, [{ Name: `tag:${CNI_CLUSTER_TAG}`, Values: [clusterName] }]])
        for await (const page of paginateDescribeNetworkInterfaces({ client: this.ec2 }, { Filters }))
          for (const n of page.NetworkInterfaces ?? [])
            if (n.NetworkInterfaceId && !n.RequesterManaged && notFromStack(n.TagSet))
              interfaces.set(n.NetworkInterfaceId, {
                kind: 'network-interface',
                id: n.NetworkInterfaceId,
                state: n.Status ?? 'unknown',
              });
      found.push(...interfaces.values());
    } catch (error) {
      throw toClmError(error, `EC2 listing what cluster ${clusterName} left (tag ${tag.key}=${tag.value})`);
    }
    if (!this.loadBalancers) return { found, unchecked: [...LOAD_BALANCER_KINDS] };
    return { found: [...(await this.loadBalancers.listOwned(tags)), ...found], unchecked: [] };
  }

  async delete(item: Leftover): Promise<'deleted' | 'gone' | 'in-use'> {
    if (LOAD_BALANCER_KINDS.includes(item.kind)) {
      if (!this.loadBalancers) throw new Error(`No load balancer API to delete ${item.kind} ${item.id}`);
      return this.loadBalancers.delete(item);
    }
    try {
      if (item.kind === 'volume') await this.ec2.send(new DeleteVolumeCommand({ VolumeId: item.id }));
      else if (item.kind === 'security-group')
        await this.ec2.send(new DeleteSecurityGroupCommand({ GroupId: item.id }));
      else await this.ec2.send(new DeleteNetworkInterfaceCommand({ NetworkInterfaceId: item.id }));
      return 'deleted';
    } catch (error) {
      const name = awsErrorName(error);
      if (NOT_FOUND[item.kind]?.includes(name)) return 'gone';
      if (IN_USE[item.kind]?.includes(name)) return 'in-use';
      throw toClmError(error, `EC2 deleting ${item.kind} ${item.id}`);
    }
  }
}
