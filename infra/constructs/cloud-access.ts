import { Aws } from 'aws-cdk-lib';
import { Effect, ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IGrantable, IRole } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

/**
 * Access to the cluster's AWS account. With `assumedRoleName` set the tasks only get `sts:AssumeRole` and the role
 * carries the rights; otherwise these are granted directly in this account.
 * - `stacks-read`: describe stacks and their outputs.
 * - `stacks-write`: create/update/delete stacks and change sets (through the CloudFormation service role).
 * - `lookups`: read-only EC2 lookups for templates (AMIs, AZs, subnets, instance types).
 * - `nodes-write`: roll nodes: ASG desired capacity, processes, terminate instances; implies reading them.
 * - `decrypt`: KMS Decrypt of `aws:kms:` config items.
 */
export type CloudAccess = 'stacks-read' | 'stacks-write' | 'lookups' | 'nodes-write' | 'decrypt';

export interface ClusterCloudAccessProps {
  /**
   * Role the tasks assume in each cluster's account. When set, tasks get only `sts:AssumeRole` on
   * `arn:aws:iam::*:role/<name>`; the role, created by the operator in every cluster account, carries the rights.
   * @default - same-account mode: the tasks are granted scoped rights in this account, and CloudFormation deploys
   * the cluster stacks through a service role created here.
   */
  readonly assumedRoleName?: string;
}

const STACK_READ = [
  'cloudformation:DescribeStacks',
  'cloudformation:DescribeStackEvents',
  'cloudformation:DescribeStackResources',
  'cloudformation:GetTemplate',
  'cloudformation:ListStackResources',
];
const STACK_WRITE = [
  'cloudformation:CreateStack',
  'cloudformation:UpdateStack',
  'cloudformation:DeleteStack',
  'cloudformation:UpdateTerminationProtection',
  'cloudformation:SetStackPolicy',
  'cloudformation:CreateChangeSet',
  'cloudformation:DescribeChangeSet',
  'cloudformation:DeleteChangeSet',
  'cloudformation:TagResource',
  'cloudformation:UntagResource',
];
/** EC2 and Auto Scaling Describe* calls support no resource-level permissions: they need Resource "*". */
const DESCRIBE_ONLY = [
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
  'autoscaling:DescribeScalingActivities',
];
const NODE_WRITE_ASG = [
  'autoscaling:SetDesiredCapacity',
  'autoscaling:UpdateAutoScalingGroup',
  'autoscaling:TerminateInstanceInAutoScalingGroup',
  'autoscaling:SuspendProcesses',
  'autoscaling:ResumeProcesses',
  'autoscaling:CreateOrUpdateTags',
  'autoscaling:DetachInstances',
];

/**
 * The tasks' access to the clusters' AWS accounts, from the CloudAccess each task's ports need (infra/task-grants.ts).
 * Same-account mode scopes every grant to this account and region; wildcards left are explained next to them.
 */
export class ClusterCloudAccess extends Construct {
  /** CloudFormation service role (same-account mode only): the stack deployer passes it as `RoleARN`. */
  public readonly stackRole?: IRole;
  private readonly assumedRoleName?: string;

  constructor(scope: Construct, id: string, props: ClusterCloudAccessProps = {}) {
    super(scope, id);
    this.assumedRoleName = props.assumedRoleName;
    if (!props.assumedRoleName) this.stackRole = this.createStackRole();
  }

  /** Grant `grantee` what `needs` lists (wildcards are justified in infra/nag.ts). */
  grant(grantee: IGrantable, needs: readonly CloudAccess[]): void {
    if (needs.length === 0) return;
    if (this.assumedRoleName) {
      // Any account: clusters live in accounts this app does not know at deploy time; the role name pins the rest.
      grantee.grantPrincipal.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['sts:AssumeRole'],
          resources: [`arn:${Aws.PARTITION}:iam::*:role/${this.assumedRoleName}`],
        }),
      );
      return;
    }
    for (const statement of this.sameAccountStatements(needs)) grantee.grantPrincipal.addToPrincipalPolicy(statement);
  }

  /** Same-account mode: the rights themselves, scoped to this account and region. */
  private sameAccountStatements(needs: readonly CloudAccess[]): PolicyStatement[] {
    const account = `${Aws.REGION}:${Aws.ACCOUNT_ID}`;
    const statements: PolicyStatement[] = [];
    if (needs.includes('stacks-read') || needs.includes('stacks-write')) {
      // Stacks of any name: cluster stacks are named by the config repo (CLM: "<cluster>-<pool>", manifests' own names).
      statements.push(
        new PolicyStatement({
          actions: STACK_READ,
          resources: [`arn:${Aws.PARTITION}:cloudformation:${account}:stack/*`],
        }),
      );
      // ListStacks and ValidateTemplate have no resource-level permissions.
      statements.push(
        new PolicyStatement({
          actions: ['cloudformation:ListStacks', 'cloudformation:ValidateTemplate'],
          resources: ['*'],
        }),
      );
    }
    if (needs.includes('stacks-write')) {
      statements.push(
        new PolicyStatement({
          actions: STACK_WRITE,
          resources: [
            `arn:${Aws.PARTITION}:cloudformation:${account}:stack/*`,
            `arn:${Aws.PARTITION}:cloudformation:${account}:changeSet/*`,
          ],
        }),
      );
      statements.push(
        new PolicyStatement({
          actions: ['iam:PassRole'],
          resources: [this.stackRole!.roleArn],
          conditions: { StringEquals: { 'iam:PassedToService': 'cloudformation.amazonaws.com' } },
        }),
      );
    }
    if (needs.includes('lookups') || needs.includes('nodes-write')) {
      statements.push(new PolicyStatement({ actions: DESCRIBE_ONLY, resources: ['*'] }));
    }
    if (needs.includes('nodes-write')) statements.push(...nodeWriteStatements(account));
    if (needs.includes('decrypt')) {
      // Keys of any ID in this account: config items name their own keys (`aws:kms:` values, CLM §10.5).
      statements.push(
        new PolicyStatement({ actions: ['kms:Decrypt'], resources: [`arn:${Aws.PARTITION}:kms:${account}:key/*`] }),
      );
    }
    return statements;
  }

  private createStackRole(): Role {
    const role = new Role(this, 'StackRole', {
      assumedBy: new ServicePrincipal('cloudformation.amazonaws.com'),
      description:
        'CloudFormation service role for cluster stacks (VPC, EC2, ASG, ELB, IAM roles of the nodes); only CloudFormation can assume it',
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('PowerUserAccess')],
    });
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: [
          'iam:GetRole',
          'iam:CreateRole',
          'iam:DeleteRole',
          'iam:UpdateRole',
          'iam:UpdateAssumeRolePolicy',
          'iam:TagRole',
          'iam:UntagRole',
          'iam:PutRolePolicy',
          'iam:GetRolePolicy',
          'iam:DeleteRolePolicy',
          'iam:AttachRolePolicy',
          'iam:DetachRolePolicy',
          'iam:PassRole',
          'iam:GetInstanceProfile',
          'iam:CreateInstanceProfile',
          'iam:DeleteInstanceProfile',
          'iam:AddRoleToInstanceProfile',
          'iam:RemoveRoleFromInstanceProfile',
          'iam:TagInstanceProfile',
          'iam:CreateServiceLinkedRole',
          'iam:GetOpenIDConnectProvider',
          'iam:CreateOpenIDConnectProvider',
          'iam:DeleteOpenIDConnectProvider',
          'iam:UpdateOpenIDConnectProviderThumbprint',
          'iam:TagOpenIDConnectProvider',
        ],
        resources: [
          `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/*`,
          `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:instance-profile/*`,
          `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:oidc-provider/*`,
        ],
      }),
    );
    return role;
  }
}

/** Rolling nodes in this account: the pool ASGs (created by the cluster stacks) and the instances they launched. */
function nodeWriteStatements(account: string): PolicyStatement[] {
  return [
    // Auto Scaling groups of any name in this account: pool ASGs are created by the cluster stacks.
    new PolicyStatement({
      actions: NODE_WRITE_ASG,
      resources: [`arn:${Aws.PARTITION}:autoscaling:${account}:autoScalingGroup:*:autoScalingGroupName/*`],
    }),
    // Only instances that an ASG launched (they carry its tag); the roll terminates outdated nodes itself.
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ['ec2:TerminateInstances', 'ec2:CreateTags'],
      resources: [`arn:${Aws.PARTITION}:ec2:${account}:instance/*`],
      conditions: { StringLike: { 'aws:ResourceTag/aws:autoscaling:groupName': '*' } },
    }),
  ];
}
