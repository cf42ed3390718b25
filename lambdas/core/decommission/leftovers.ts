/**
 * What a cluster leaves behind outside its stacks, and the order decommission deletes it in (reference/clm-behaviour.md
 * §6.5; CLM deletes only volumes, behind `--remove-volumes`, and ENIs for EKS). Kubernetes creates load balancers
 * (classic and v2, for Services of type LoadBalancer) and their security groups, tagged
 * `kubernetes.io/cluster/<cluster>` = owned; EBS volumes of PersistentVolumes outlive their nodes; the VPC CNI and
 * terminated nodes leave network interfaces `available`. None of them belongs to a CloudFormation stack, and the
 * security groups and interfaces keep the VPC of the main stack from being deleted.
 *
 * Order within one pass: load balancers first (their security groups stay in use until they are gone), then the target
 * groups (in use while a load balancer's listener forwards to them: deleting the load balancer frees them), network
 * interfaces, volumes, and last the security groups — each pass deletes what can go now; what is still in use waits
 * for the next pass.
 */

export const LEFTOVER_KINDS = [
  'classic-load-balancer',
  'load-balancer',
  'target-group',
  'network-interface',
  'volume',
  'security-group',
] as const;
export type LeftoverKind = (typeof LEFTOVER_KINDS)[number];

export interface Leftover {
  readonly kind: LeftoverKind;
  /** Load balancer or target group name, or the EC2 id (vol-…, sg-…, eni-…). */
  readonly id: string;
  /** ELBv2 load balancers and target groups: the ARN the API deletes by. */
  readonly arn?: string;
  /** EC2 state (volumes: available | in-use | …; interfaces: available | in-use), when it has one. */
  readonly state?: string;
}

/** A tag that marks a resource as a cluster's. */
export interface OwnedTag {
  readonly key: string;
  readonly value: string;
}

/**
 * The tag the AWS cloud provider and the EBS CSI driver put on what they make for a cluster (CLM's `Name()`: the id,
 * or the alias for EKS).
 */
export function ownedTag(clusterName: string): OwnedTag {
  return { key: `kubernetes.io/cluster/${clusterName}`, value: 'owned' };
}

/** The tag the AWS Load Balancer Controller puts on its load balancers, target groups and security groups. */
export const LB_CONTROLLER_CLUSTER_TAG = 'elbv2.k8s.aws/cluster';

/**
 * Every tag that marks a leftover as the cluster's: the cloud provider's, and the AWS Load Balancer Controller's (its
 * `--cluster-name`, taken to be the cluster's name), which carries no `kubernetes.io/cluster/…` tag of its own.
 */
export function ownedTags(clusterName: string): readonly OwnedTag[] {
  return [ownedTag(clusterName), { key: LB_CONTROLLER_CLUSTER_TAG, value: clusterName }];
}

/** Whether `tags` carry one of the cluster's tags (`ownedTags`). */
export function ownedBy(tags: Readonly<Record<string, string>>, owned: readonly OwnedTag[]): boolean {
  return owned.some((tag) => tags[tag.key] === tag.value);
}

/** The tag AWS's VPC CNI puts on the interfaces it creates, with the cluster's name. */
export const CNI_CLUSTER_TAG = 'cluster.k8s.amazonaws.com/name';

/** `kind id`, as the run record and the CLI list them. */
export function leftoverName(item: Pick<Leftover, 'kind' | 'id'>): string {
  return `${item.kind} ${item.id}`;
}

export interface CleanupPlan {
  /** To delete in this pass, in order. */
  readonly delete: readonly Leftover[];
  /** Volumes kept (`--keep-volumes`). */
  readonly kept: readonly Leftover[];
  /** Found but not deletable yet: in use (an attached volume, an interface in use), or waiting for a load balancer. */
  readonly waiting: readonly Leftover[];
}

const DELETABLE_STATE: Partial<Record<LeftoverKind, ReadonlySet<string>>> = {
  volume: new Set(['available']),
  'network-interface': new Set(['available']),
};

/** One pass of the cleanup over what `found` lists now. */
export function planCleanup(found: readonly Leftover[], options: { readonly keepVolumes: boolean }): CleanupPlan {
  const order = (item: Leftover) => LEFTOVER_KINDS.indexOf(item.kind);
  const sorted = [...found].sort((a, b) => order(a) - order(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const lbsLeft = sorted.some((i) => i.kind === 'classic-load-balancer' || i.kind === 'load-balancer');
  const plan = { delete: [] as Leftover[], kept: [] as Leftover[], waiting: [] as Leftover[] };
  for (const item of sorted) {
    if (item.kind === 'volume' && options.keepVolumes) plan.kept.push(item);
    else if (item.kind === 'security-group' && lbsLeft) plan.waiting.push(item);
    else {
      const states = DELETABLE_STATE[item.kind];
      if (states && !states.has(item.state ?? '')) plan.waiting.push(item);
      else plan.delete.push(item);
    }
  }
  return plan;
}
