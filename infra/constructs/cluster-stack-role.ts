import { Aws } from 'aws-cdk-lib';
import {
  Effect,
  ManagedPolicy,
  PermissionsBoundary,
  PolicyDocument,
  PolicyStatement,
  Role,
  ServicePrincipal,
} from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

/** The AWS services cluster templates (the config repository) may use, without IAM (handled on its own). */
export const DEFAULT_TEMPLATE_SERVICES: readonly string[] = [
  'ec2',
  'autoscaling',
  'elasticloadbalancing',
  'kms',
  'logs',
  'sns',
  'sqs',
  's3',
  'route53',
  'cloudwatch',
  'events',
  'ssm',
  'acm',
  'eks',
  'ecr',
  'application-autoscaling',
];

/**
 * What an IAM role made by a cluster template (node roles, pod roles) may do at most: it must carry the node-role
 * boundary, so whatever policy the template gives it, it never exceeds this.
 */
export const DEFAULT_NODE_ROLE_ACTIONS: readonly string[] = [
  'ec2:Describe*',
  'ec2:AttachVolume',
  'ec2:DetachVolume',
  'ec2:CreateVolume',
  'ec2:DeleteVolume',
  'ec2:CreateSnapshot',
  'ec2:CreateTags',
  'ec2:ModifyInstanceAttribute',
  'ec2:AssignPrivateIpAddresses',
  'ec2:UnassignPrivateIpAddresses',
  'ec2:AttachNetworkInterface',
  'ec2:CreateNetworkInterface',
  'ec2:DeleteNetworkInterface',
  'ec2:DetachNetworkInterface',
  'ec2:ModifyNetworkInterfaceAttribute',
  'autoscaling:Describe*',
  'autoscaling:SetDesiredCapacity',
  'autoscaling:TerminateInstanceInAutoScalingGroup',
  'elasticloadbalancing:*',
  'ecr:GetAuthorizationToken',
  'ecr:BatchCheckLayerAvailability',
  'ecr:GetDownloadUrlForLayer',
  'ecr:BatchGetImage',
  'kms:Decrypt',
  'kms:DescribeKey',
  's3:GetObject',
  's3:ListBucket',
  'route53:ChangeResourceRecordSets',
  'route53:ListHostedZones',
  'route53:ListResourceRecordSets',
  'route53:GetChange',
  'logs:CreateLogGroup',
  'logs:CreateLogStream',
  'logs:PutLogEvents',
  'logs:DescribeLogStreams',
  'cloudwatch:PutMetricData',
  'ssm:GetParameter',
  'ssm:GetParameters',
  'sts:AssumeRole',
  'sts:AssumeRoleWithWebIdentity',
];

export interface ClusterStackRoleProps {
  /**
   * Name of the CloudFormation service role (fixed, so CLM can name it by account: `arn:aws:iam::<account>:role/<name>`).
   * @default - generated (same-account mode passes the ARN to the tasks)
   */
  readonly roleName?: string;
  /** Name prefix of the two boundary policies: `<prefix>-stacks-boundary`, `<prefix>-node-role-boundary`. */
  readonly policyNamePrefix: string;
  /**
   * Names the IAM roles, instance profiles and policies of cluster templates may have (IAM wildcards). A role created
   * by a stack without a RoleName is named after the stack, so the stack name patterns fit. Only these can be passed
   * to EC2 (instance profiles): a template cannot hand an instance an existing, more powerful role.
   */
  readonly iamNamePatterns: readonly string[];
  /** @default DEFAULT_TEMPLATE_SERVICES */
  readonly templateServices?: readonly string[];
  /** @default DEFAULT_NODE_ROLE_ACTIONS */
  readonly nodeRoleActions?: readonly string[];
  /**
   * Roles a template must not touch (CLM's own access role). The service role itself and both boundaries always are.
   * @default []
   */
  readonly protectedRoleArns?: readonly string[];
}

const IAM_ROLE_ACTIONS = [
  'iam:GetRole',
  'iam:CreateRole',
  'iam:DeleteRole',
  'iam:UpdateRole',
  'iam:UpdateRoleDescription',
  'iam:UpdateAssumeRolePolicy',
  'iam:TagRole',
  'iam:UntagRole',
  'iam:PutRolePolicy',
  'iam:GetRolePolicy',
  'iam:DeleteRolePolicy',
  'iam:AttachRolePolicy',
  'iam:DetachRolePolicy',
  'iam:PutRolePermissionsBoundary',
  'iam:PassRole',
  'iam:GetInstanceProfile',
  'iam:CreateInstanceProfile',
  'iam:DeleteInstanceProfile',
  'iam:AddRoleToInstanceProfile',
  'iam:RemoveRoleFromInstanceProfile',
  'iam:TagInstanceProfile',
  'iam:GetOpenIDConnectProvider',
  'iam:CreateOpenIDConnectProvider',
  'iam:DeleteOpenIDConnectProvider',
  'iam:UpdateOpenIDConnectProviderThumbprint',
  'iam:TagOpenIDConnectProvider',
  'iam:GetPolicy',
  'iam:GetPolicyVersion',
  'iam:ListPolicyVersions',
  'iam:CreatePolicy',
  'iam:DeletePolicy',
  'iam:CreatePolicyVersion',
  'iam:DeletePolicyVersion',
];
/** Changing what a role may do: allowed only on roles that carry the node-role boundary. */
const ROLE_PERMISSION_CHANGES = [
  'iam:CreateRole',
  'iam:PutRolePermissionsBoundary',
  'iam:PutRolePolicy',
  'iam:DeleteRolePolicy',
  'iam:AttachRolePolicy',
  'iam:DetachRolePolicy',
];

/**
 * The CloudFormation service role for cluster stacks, and what caps it:
 * - the role may use the template services and manage IAM roles, instance profiles and policies named by
 *   `iamNamePatterns` (the cluster stacks' names), and OIDC providers;
 * - its permissions boundary (`<prefix>-stacks-boundary`) allows the same and denies: creating or changing a role
 *   that does not carry the node-role boundary, removing a boundary, and touching the service role, CLM's access
 *   role or either boundary policy. So no template can mint a role more powerful than the node-role boundary, nor
 *   widen this role;
 * - `<prefix>-node-role-boundary` is what every role a template creates may do at most (DEFAULT_NODE_ROLE_ACTIONS).
 * Users, groups, access keys, Organizations, CloudTrail and every service not listed are out of reach.
 */
export class ClusterStackRole extends Construct {
  public readonly role: Role;
  public readonly stacksBoundary: ManagedPolicy;
  public readonly nodeRoleBoundary: ManagedPolicy;

  constructor(scope: Construct, id: string, props: ClusterStackRoleProps) {
    super(scope, id);
    const iam = (resource: string) => `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:${resource}`;
    const nodeBoundaryName = `${props.policyNamePrefix}-node-role-boundary`;
    const stacksBoundaryName = `${props.policyNamePrefix}-stacks-boundary`;
    this.nodeRoleBoundary = new ManagedPolicy(this, 'NodeRoleBoundary', {
      managedPolicyName: nodeBoundaryName,
      description: 'CLM: the most an IAM role created by a cluster template may do (its permissions boundary)',
      statements: [
        new PolicyStatement({ actions: [...(props.nodeRoleActions ?? DEFAULT_NODE_ROLE_ACTIONS)], resources: ['*'] }),
      ],
    });
    const allowed = new PolicyDocument({ statements: this.allowStatements(props, iam) });
    const roleName = props.roleName;
    const protectedArns = [
      roleName ? iam(`role/${roleName}`) : undefined,
      ...(props.protectedRoleArns ?? []),
      iam(`policy/${nodeBoundaryName}`),
      iam(`policy/${stacksBoundaryName}`),
    ].filter((a): a is string => a !== undefined);
    this.stacksBoundary = new ManagedPolicy(this, 'StacksBoundary', {
      managedPolicyName: stacksBoundaryName,
      description: 'CLM: the most the CloudFormation service role of cluster stacks may do (its permissions boundary)',
      statements: [
        ...this.allowStatements(props, iam),
        new PolicyStatement({
          effect: Effect.DENY,
          actions: ROLE_PERMISSION_CHANGES,
          resources: ['*'],
          conditions: { StringNotEquals: { 'iam:PermissionsBoundary': iam(`policy/${nodeBoundaryName}`) } },
        }),
        new PolicyStatement({
          effect: Effect.DENY,
          actions: ['iam:DeleteRolePermissionsBoundary'],
          resources: ['*'],
        }),
        new PolicyStatement({ effect: Effect.DENY, actions: ['iam:*'], resources: protectedArns }),
      ],
    });
    this.role = new Role(this, 'Resource', {
      ...(roleName ? { roleName } : {}),
      assumedBy: new ServicePrincipal('cloudformation.amazonaws.com'),
      description:
        'CLM: CloudFormation service role of cluster stacks; bounded (stacks boundary), roles it creates must carry the node-role boundary',
      inlinePolicies: { ClusterStacks: allowed },
    });
    PermissionsBoundary.of(this.role).apply(this.stacksBoundary);
  }

  private allowStatements(props: ClusterStackRoleProps, iam: (resource: string) => string): PolicyStatement[] {
    return [
      new PolicyStatement({
        actions: (props.templateServices ?? DEFAULT_TEMPLATE_SERVICES).map((service) => `${service}:*`),
        resources: ['*'],
      }),
      new PolicyStatement({
        actions: IAM_ROLE_ACTIONS,
        resources: [
          ...props.iamNamePatterns.flatMap((p) => [iam(`role/${p}`), iam(`instance-profile/${p}`), iam(`policy/${p}`)]),
          iam('oidc-provider/*'),
        ],
      }),
      new PolicyStatement({ actions: ['iam:CreateServiceLinkedRole'], resources: [iam('role/aws-service-role/*')] }),
    ];
  }
}
