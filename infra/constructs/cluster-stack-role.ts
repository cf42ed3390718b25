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
import { TEMPLATE_SERVICES, templateResourceStatements } from './template-resource-statements';

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
   * Names of the cluster stacks (IAM wildcards): resources of these stacks (CloudFormation's
   * `aws:cloudformation:stack-name` tag) are the ones templates may change or delete. A role, instance profile or any
   * other resource a stack creates without a name is named after the stack, so these are also the default names of
   * the templates' resources.
   */
  readonly stackNamePatterns: readonly string[];
  /**
   * Names the templates' named resources may have: IAM roles, instance profiles and policies (only these can be passed
   * to EC2: a template cannot hand an instance an existing, more powerful role), S3 buckets, SQS queues, SNS topics,
   * log groups, SSM documents, EventBridge rules, Auto Scaling groups, KMS aliases, OIDC providers (their issuer host)
   * and DNS records (template-resource-statements.ts).
   * @default stackNamePatterns
   */
  readonly resourceNamePatterns?: readonly string[];
  /**
   * Other stacks whose resources templates may change, e.g. an etcd stack whose security group the cluster stack
   * opens to its masters.
   * @default []
   */
  readonly sharedStackNamePatterns?: readonly string[];
  /**
   * More allow statements, for resource types the built-in list does not cover (they are also added to the stacks
   * boundary; the IAM denies of the boundary still apply).
   * @default []
   */
  readonly additionalStatements?: readonly PolicyStatement[];
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
 * - the role may make the calls CloudFormation's handlers make for the templates' resource types, on the resources a
 *   cluster stack owns (template-resource-statements.ts: names matching `resourceNamePatterns`, or tagged as a
 *   resource of a cluster stack), and manage IAM roles, instance profiles, policies and OIDC providers with those
 *   names;
 * - its permissions boundary (`<prefix>-stacks-boundary`) allows the same services and IAM, and denies: creating or changing a role
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
  /** The role's statements on the templates' named resources (logs, SNS, SQS, S3, EventBridge, SSM documents). */
  public readonly namedResources: ManagedPolicy;

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
    const template = this.templateStatements(props);
    const allowed = new PolicyDocument({
      statements: [...template.tagged, ...this.iamStatements(props, iam), ...(props.additionalStatements ?? [])],
    });
    const namedResourcesName = `${props.policyNamePrefix}-stacks-named-resources`;
    const roleName = props.roleName;
    const protectedArns = [
      roleName ? iam(`role/${roleName}`) : undefined,
      ...(props.protectedRoleArns ?? []),
      iam(`policy/${nodeBoundaryName}`),
      iam(`policy/${stacksBoundaryName}`),
      iam(`policy/${namedResourcesName}`),
    ].filter((a): a is string => a !== undefined);
    this.stacksBoundary = new ManagedPolicy(this, 'StacksBoundary', {
      managedPolicyName: stacksBoundaryName,
      description: 'CLM: the most the CloudFormation service role of cluster stacks may do (its permissions boundary)',
      statements: [
        ...this.boundaryStatements(props, iam),
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
    // The named resources' statements grow with the name patterns: a policy of their own (6,144 characters), so the
    // role's inline policy stays within its 10,240.
    this.namedResources = new ManagedPolicy(this, 'NamedResources', {
      managedPolicyName: namedResourcesName,
      description: 'CLM: the named resources of cluster templates (logs, SNS, SQS, S3, EventBridge, SSM documents)',
      statements: template.named,
      roles: [this.role],
    });
    PermissionsBoundary.of(this.role).apply(this.stacksBoundary);
  }

  private templateStatements(props: ClusterStackRoleProps) {
    return templateResourceStatements({
      partition: Aws.PARTITION,
      account: Aws.ACCOUNT_ID,
      resourceNamePatterns: resourceNames(props),
      logGroupNamePatterns: props.resourceNamePatterns ? [] : [DEFAULT_LOG_GROUP_PATTERN],
      stackNamePatterns: [...props.stackNamePatterns, ...(props.sharedStackNamePatterns ?? [])],
    });
  }

  /** IAM roles, instance profiles, policies and OIDC providers with the templates' names; service-linked roles. */
  private iamStatements(props: ClusterStackRoleProps, iam: (resource: string) => string): PolicyStatement[] {
    const names = resourceNames(props);
    return [
      new PolicyStatement({
        actions: IAM_ROLE_ACTIONS,
        resources: [
          ...names.flatMap((p) => [iam(`role/${p}`), iam(`instance-profile/${p}`), iam(`policy/${p}`)]),
          ...names.map((p) => iam(`oidc-provider/${p}`)),
        ],
      }),
      new PolicyStatement({ actions: ['iam:CreateServiceLinkedRole'], resources: [iam('role/aws-service-role/*')] }),
    ];
  }

  /**
   * The stacks boundary's ceiling: the services of the templates' resources and of `additionalStatements` on any
   * resource (the role's own statements say which actions on which resources), and IAM only as the role has it.
   */
  private boundaryStatements(props: ClusterStackRoleProps, iam: (resource: string) => string): PolicyStatement[] {
    const extra = (props.additionalStatements ?? []).flatMap((s) => [s.toStatementJson().Action as string | string[]]);
    const services = new Set([...TEMPLATE_SERVICES, ...extra.flat().map((a) => a.split(':')[0]!)]);
    services.delete('iam');
    return [
      new PolicyStatement({ actions: [...services].map((service) => `${service}:*`), resources: ['*'] }),
      ...this.iamStatements(props, iam),
    ];
  }
}

/**
 * The names of the templates' resources: as given, or the stacks' names (CloudFormation names an unnamed resource
 * after its stack).
 */
export function resourceNames(props: Pick<ClusterStackRoleProps, 'resourceNamePatterns' | 'stackNamePatterns'>) {
  return props.resourceNamePatterns ?? props.stackNamePatterns;
}

/** Log groups of the examples' clusters (`/kubernetes/<cluster>/control-plane`), allowed unless names are given. */
export const DEFAULT_LOG_GROUP_PATTERN = '/kubernetes/*';
