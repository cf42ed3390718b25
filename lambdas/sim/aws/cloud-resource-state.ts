import type { LeftoverKind } from '../../core/decommission/leftovers';

/** A load balancer, target group, security group, volume or network interface no stack made (aws/leftovers.ts). */
export interface CloudResourceRecord {
  readonly kind: LeftoverKind;
  readonly id: string;
  readonly arn?: string;
  /** The cluster whose shard holds it. */
  readonly cluster: string;
  readonly tags: Record<string, string>;
  /** Volumes and interfaces: available | in-use. */
  state?: string;
  /** Load balancers: their security groups and (v2) target groups, in use while the load balancer exists. */
  readonly securityGroups?: readonly string[];
  readonly targetGroups?: readonly string[];
}
