/**
 * The IAM statements of what CLM does in a cluster's account, in one place: the same-account grants of the task roles
 * (cloud-access.ts) and the role every cluster account gives CLM (ClmClusterAccessStack) are built from these, so the
 * two modes cannot drift apart. Every action is one CLM's adapters call (lambdas/adapters/aws):
 *
 * - Stacks: read any stack of the account; create, update and delete only stacks whose names match CLM's patterns
 *   (`nodepool-*` and the cluster stacks' names), and only through the CloudFormation service role (condition
 *   `cloudformation:RoleArn`), so what a stack may create is the service role's business, capped by its boundary.
 * - Node pools: Auto Scaling writes only on groups tagged `kubernetes.io/role/node-pool=true` (every CLM node-pool
 *   stack carries it and CloudFormation puts it on the groups); the one tag written is the roll's pre-roll size mark. ASG instances are terminated through their group
 *   (TerminateInstanceInAutoScalingGroup); the one EC2 write is TerminateInstances on instances that carry the tag
 *   key `karpenter.sh/nodepool` (Karpenter pools: roll, removal, decommission).
 * - Lookups: EC2 and Auto Scaling Describe* calls (they have no resource-level permissions).
 * - Large templates and the nodes' files bundles: the CLM bucket `cluster-lifecycle-manager-<account>-<region>` of the
 *   cluster account; the bundles' secrets are encrypted with the account's KMS keys (the main stack's), and the lookups
 *   read ACM's certificates and resolve the etcd stack's key alias.
 * - Decommission's cleanup (lambdas/adapters/aws/ec2-cluster-leftovers.ts): delete load balancers, security groups,
 *   volumes and network interfaces of the account and region that no CloudFormation stack made (tag condition: no
 *   `aws:cloudformation:stack-id`); the adapter picks only those tagged `kubernetes.io/cluster/<cluster>` = owned (IAM
 *   cannot condition on a tag key that names the cluster).
 */
import { Aws } from 'aws-cdk-lib';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { TAG_NODE_POOL_ROLE } from '../../lambdas/core/cloudformation/stack-names';
import { PRE_ROLL_SIZE_TAG } from '../../lambdas/core/rollout/pre-roll-size';
import { VCPU_QUOTAS } from '../../lambdas/core/capacity/vcpu-quotas';

/** CLM's own stack name prefix (lambdas/core/cloudformation/stack-names.ts `nodePoolStackName`). */
export const NODE_POOL_STACK_PATTERN = 'nodepool-*';
/**
 * Main stacks are named after `local_id` and cf-manifest stacks by their template; the conventional `kube-` prefix
 * covers the examples. Set `clusterStackNamePatterns` when your names differ.
 */
export const DEFAULT_STACK_NAME_PATTERNS: readonly string[] = [NODE_POOL_STACK_PATTERN, 'kube-*'];

export interface ClusterAccessScope {
  readonly partition: string;
  /** The cluster account (a literal or `Aws.ACCOUNT_ID`). */
  readonly account: string;
  /** One region, or `*` for every region of the account. */
  readonly region: string;
  /** Stack names CLM may create, update and delete (IAM wildcards). */
  readonly stackNamePatterns: readonly string[];
  /**
   * The CloudFormation service role stack operations must name (`RoleARN`).
   * @default - no condition (the stacks run with the caller's rights)
   */
  readonly stackRoleArn?: string;
}

export const STACK_READ = [
  'cloudformation:DescribeStacks',
  'cloudformation:DescribeStackEvents',
  'cloudformation:DescribeStackResources',
  'cloudformation:GetTemplate',
  'cloudformation:ListStackResources',
];
/** Stack writes that run the template: only through the service role. */
const STACK_OPERATIONS = [
  'cloudformation:CreateStack',
  'cloudformation:UpdateStack',
  'cloudformation:DeleteStack',
  // Recovery of a stack in UPDATE_ROLLBACK_FAILED (lambdas/core/stacks/stack-recovery.ts).
  'cloudformation:ContinueUpdateRollback',
];
/** Stack writes that create nothing (plans, protection, tags). */
const STACK_HOUSEKEEPING = [
  'cloudformation:UpdateTerminationProtection',
  'cloudformation:CreateChangeSet',
  'cloudformation:DescribeChangeSet',
  'cloudformation:DeleteChangeSet',
  'cloudformation:TagResource',
  'cloudformation:UntagResource',
];
/** EC2 and Auto Scaling Describe* calls support no resource-level permissions: they need Resource "*". */
export const DESCRIBE_ONLY = [
  // Checks a template before the first write (RenderConfig); not a stack action, so no resource to scope it to.
  'cloudformation:ValidateTemplate',
  'ec2:DescribeImages',
  'ec2:DescribeInstances',
  'ec2:DescribeInstanceTypes',
  'ec2:DescribeAvailabilityZones',
  'ec2:DescribeSubnets',
  'ec2:DescribeVpcs',
  'ec2:DescribeSecurityGroups',
  'ec2:DescribeLaunchTemplateVersions',
  'ec2:DescribeVolumes',
  'autoscaling:DescribeAutoScalingGroups',
  'autoscaling:DescribeAutoScalingInstances',
  'autoscaling:DescribeScalingActivities',
  // The roll's health gate (update_health_alarm).
  'cloudwatch:DescribeAlarms',
  // zalando-eks: the creation hook and decommission read the control plane (endpoint, CA, OIDC issuer).
  'eks:DescribeCluster',
  // `load_balancer_certificate`: the account's ISSUED certificates and their chains (CLM §6.2 step 6).
  'acm:ListCertificates',
  'acm:GetCertificate',
];
/** What rolling and removing node pools calls (lambdas/adapters/aws/asg-node-pool-backend.ts). */
export const NODE_WRITE_ASG = [
  'autoscaling:UpdateAutoScalingGroup',
  'autoscaling:TerminateInstanceInAutoScalingGroup',
  'autoscaling:DeleteTags',
];

const arn = (s: ClusterAccessScope, service: string, resource: string, region = s.region) =>
  `arn:${s.partition}:${service}:${region}:${s.account}:${resource}`;

export function stackReadStatements(scope: ClusterAccessScope): PolicyStatement[] {
  // Reading any stack is harmless and DescribeStacks without a name lists them all (CLM finds stacks by tag).
  return [new PolicyStatement({ actions: STACK_READ, resources: [arn(scope, 'cloudformation', 'stack/*')] })];
}

export function stackWriteStatements(scope: ClusterAccessScope): PolicyStatement[] {
  const stacks = scope.stackNamePatterns.map((p) => arn(scope, 'cloudformation', `stack/${p}/*`));
  const changeSets = arn(scope, 'cloudformation', 'changeSet/clm-plan-*/*');
  const statements = [
    new PolicyStatement({
      actions: STACK_OPERATIONS,
      resources: stacks,
      ...(scope.stackRoleArn ? { conditions: { StringEquals: { 'cloudformation:RoleArn': scope.stackRoleArn } } } : {}),
    }),
    new PolicyStatement({ actions: STACK_HOUSEKEEPING, resources: [...stacks, changeSets] }),
  ];
  if (scope.stackRoleArn)
    statements.push(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [scope.stackRoleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'cloudformation.amazonaws.com' } },
      }),
    );
  return statements;
}

export function describeStatement(): PolicyStatement {
  return new PolicyStatement({ actions: DESCRIBE_ONLY, resources: ['*'] });
}

/** The etcd stack's key: `alias/etcd-cluster` resolved to its key (KMS DescribeKey). */
export function keyLookupStatements(scope: ClusterAccessScope): PolicyStatement[] {
  return [new PolicyStatement({ actions: ['kms:DescribeKey'], resources: [arn(scope, 'kms', 'key/*')] })];
}

/**
 * The nodes' files bundles (CLM §6.4): put into CLM's bucket of the account (created when missing), secrets encrypted
 * with the account's keys (the main stack's `MasterFilesEncryptionKey`/`WorkerFilesEncryptionKey`, etcd's alias). A
 * cluster whose `node_files_bucket` names another bucket needs that bucket's grant besides.
 */
export function nodeFilesStatements(scope: ClusterAccessScope): PolicyStatement[] {
  return [
    ...templateBucketStatements(scope),
    new PolicyStatement({ actions: ['kms:Encrypt'], resources: [arn(scope, 'kms', 'key/*')] }),
  ];
}

export function nodeWriteStatements(scope: ClusterAccessScope): PolicyStatement[] {
  return [
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: NODE_WRITE_ASG,
      resources: [arn(scope, 'autoscaling', 'autoScalingGroup:*:autoScalingGroupName/*')],
      conditions: { StringEquals: { [`autoscaling:ResourceTag/${TAG_NODE_POOL_ROLE}`]: 'true' } },
    }),
    // The roll's mark of a group's size before it (core/rollout/pre-roll-size.ts): that tag key only.
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ['autoscaling:CreateOrUpdateTags'],
      resources: [arn(scope, 'autoscaling', 'autoScalingGroup:*:autoScalingGroupName/*')],
      conditions: {
        StringEquals: { [`autoscaling:ResourceTag/${TAG_NODE_POOL_ROLE}`]: 'true' },
        'ForAllValues:StringEquals': { 'aws:TagKeys': [PRE_ROLL_SIZE_TAG] },
      },
    }),
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ['ec2:TerminateInstances'],
      resources: [arn(scope, 'ec2', 'instance/*')],
      conditions: { Null: { 'aws:ResourceTag/karpenter.sh/nodepool': 'false' } },
    }),
  ];
}

/** Decommission's listing of what a cluster left (Describe* calls have no resource-level permissions). */
export const LEFTOVERS_DESCRIBE = [
  'ec2:DescribeVolumes',
  'ec2:DescribeSecurityGroups',
  'ec2:DescribeNetworkInterfaces',
  'elasticloadbalancing:DescribeLoadBalancers',
  'elasticloadbalancing:DescribeTargetGroups',
  'elasticloadbalancing:DescribeTags',
];

/**
 * Leftovers are what no stack made: a resource carrying CloudFormation's `aws:cloudformation:stack-id` tag belongs to
 * a stack (this cluster's or anyone's), which deletes it itself, so the deletes refuse it (the adapter never lists
 * one either, ec2-cluster-leftovers.ts).
 */
export const NO_STACK_RESOURCE = { Null: { 'aws:ResourceTag/aws:cloudformation:stack-id': 'true' } };

/** Decommission deletes what the cluster left outside its stacks (core/decommission/leftovers.ts). */
export function leftoversStatements(s: ClusterAccessScope): PolicyStatement[] {
  return [
    new PolicyStatement({ actions: LEFTOVERS_DESCRIBE, resources: ['*'] }),
    new PolicyStatement({
      actions: ['ec2:DeleteVolume', 'ec2:DeleteSecurityGroup', 'ec2:DeleteNetworkInterface'],
      resources: [arn(s, 'ec2', 'volume/*'), arn(s, 'ec2', 'security-group/*'), arn(s, 'ec2', 'network-interface/*')],
      conditions: NO_STACK_RESOURCE,
    }),
    new PolicyStatement({
      actions: ['elasticloadbalancing:DeleteLoadBalancer', 'elasticloadbalancing:DeleteTargetGroup'],
      resources: [arn(s, 'elasticloadbalancing', 'loadbalancer/*'), arn(s, 'elasticloadbalancing', 'targetgroup/*')],
      conditions: NO_STACK_RESOURCE,
    }),
  ];
}

/** Templates over 51,200 bytes go through `cluster-lifecycle-manager-<account>-<region>` (aws-cluster-ports.ts). */
export function templateBucketStatements(scope: ClusterAccessScope): PolicyStatement[] {
  const bucket = `arn:${scope.partition}:s3:::cluster-lifecycle-manager-${scope.account}-${scope.region}`;
  return [
    new PolicyStatement({ actions: ['s3:CreateBucket', 's3:ListBucket', 's3:GetBucketLocation'], resources: [bucket] }),
    new PolicyStatement({ actions: ['s3:PutObject', 's3:GetObject'], resources: [`${bucket}/*`] }),
  ];
}

/**
 * The account's On-Demand vCPU quotas, read by the tasks that rehearse an update (Service Quotas GetServiceQuota, each
 * quota's ARN; the instances' use is EC2 DescribeInstances, one of DESCRIBE_ONLY).
 */
export function quotaReadStatements(scope: ClusterAccessScope): PolicyStatement[] {
  return [
    new PolicyStatement({
      actions: ['servicequotas:GetServiceQuota'],
      resources: VCPU_QUOTAS.map(
        (q) => `arn:${scope.partition}:servicequotas:${scope.region}:${scope.account}:ec2/${q.code}`,
      ),
    }),
  ];
}

/** Everything CLM does in a cluster account: stacks, node pools, lookups, large templates. */
export function clusterAccountStatements(scope: ClusterAccessScope): PolicyStatement[] {
  return [
    ...stackReadStatements(scope),
    ...stackWriteStatements(scope),
    describeStatement(),
    ...keyLookupStatements(scope),
    ...nodeWriteStatements(scope),
    ...nodeFilesStatements(scope),
    ...leftoversStatements(scope),
    ...quotaReadStatements(scope),
  ];
}

/** Per-cluster API token secrets (config item `kube_token_secret`), named under `prefix` in this account and region. */
export function clusterTokenSecretsStatement(prefix: string): PolicyStatement {
  return new PolicyStatement({
    actions: ['secretsmanager:GetSecretValue'],
    resources: [`arn:${Aws.PARTITION}:secretsmanager:${Aws.REGION}:${Aws.ACCOUNT_ID}:secret:${prefix}*`],
  });
}
