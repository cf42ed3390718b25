/**
 * What the CloudFormation service role of cluster stacks may do with the resources cluster templates declare (besides
 * IAM, which cluster-stack-role.ts grants and its boundary caps): the calls CloudFormation's handlers make for the
 * resource types of `examples/config` and of Zalando's kubernetes-on-aws (`cluster/` and its node-pool stacks), each
 * on the resources a cluster stack can own and no others:
 *
 * - Named resources (S3 buckets, SQS queues, SNS topics, log groups, SSM documents, EventBridge rules, Auto Scaling
 *   groups, KMS aliases, DNS records): only names matching `resourceNamePatterns`. A resource a template leaves unnamed
 *   is named `<stack>-<logical id>-<suffix>` by CloudFormation, so the stacks' name patterns fit it.
 * - Resources named by an id (security groups, launch templates, load balancers, target groups, listeners, KMS keys)
 *   and Auto Scaling groups: changing or deleting one is refused when it carries CloudFormation's
 *   `aws:cloudformation:stack-name` tag of a stack other than CLM's (`stackNamePatterns`, plus `sharedStackNamePatterns`
 *   for stacks whose resources the templates are meant to extend, e.g. an etcd stack's security group). A resource
 *   without that tag (made by hand, or by the handler a moment before CloudFormation tags it) is not refused by the
 *   tag: IAM cannot tell "just created by this stack" from "made by hand" for id-named resources.
 * - Creating new EC2 resources (security groups, launch templates, instances through Auto Scaling) and KMS keys;
 *   EC2 tags only while creating, or on resources the previous point allows.
 * - Reads without resource-level permissions (EC2, Auto Scaling and ELB Describe*, hosted zone listings).
 *
 * Nothing else: no SSM commands or sessions, no EKS, no ECR, no other bucket's policy, no other service.
 * test/infra/stack-role-permissions.test.ts checks every call the rendered templates need against the synthesized
 * policy, and that the calls this is meant to keep out are refused.
 */
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  ANY_RESOURCE,
  EC2_CREATE,
  EC2_CHANGE,
  AUTO_SCALING,
  LOAD_BALANCING,
  KMS_KEY,
  KMS_ALIAS,
  LOGS,
  SNS,
  SQS,
  S3_BUCKET,
  EVENTS,
  SSM_DOCUMENT,
} from './template-resource-actions';

export interface TemplateResourceScope {
  readonly partition: string;
  /** The account the stacks run in (a literal or `Aws.ACCOUNT_ID`). */
  readonly account: string;
  /** Names the templates' named resources may have (IAM wildcards); S3 and DNS names are matched in lower case. */
  readonly resourceNamePatterns: readonly string[];
  /** More names for log groups only (paths such as `/kubernetes/*`). */
  readonly logGroupNamePatterns?: readonly string[];
  /** Stacks whose resources (tag `aws:cloudformation:stack-name`) templates may change: CLM's and shared ones. */
  readonly stackNamePatterns: readonly string[];
}

/** CloudFormation's own tag on every resource of a stack that supports tags. */
export const STACK_NAME_TAG = 'aws:cloudformation:stack-name';

/** The services `templateResourceStatements` grants actions of (the stacks boundary's ceiling besides IAM). */
export const TEMPLATE_SERVICES: readonly string[] = [
  'ec2',
  'autoscaling',
  'elasticloadbalancing',
  'kms',
  'logs',
  'sns',
  'sqs',
  's3',
  'route53',
  'events',
  'ssm',
];

/**
 * The allow statements of the stack role for the resources of cluster templates (IAM aside), in two parts that each
 * fit one IAM policy: resources named by an id or tagged (EC2, Auto Scaling, ELB, KMS, DNS), and resources named by
 * the templates (logs, SNS, SQS, S3, EventBridge, SSM documents), whose size grows with `resourceNamePatterns`.
 */
export function templateResourceStatements(scope: TemplateResourceScope): {
  readonly tagged: PolicyStatement[];
  readonly named: PolicyStatement[];
} {
  return { tagged: taggedStatements(scope), named: namedStatements(scope) };
}

type Arn = (service: string, resource: string) => string;

function arnsOf(scope: TemplateResourceScope): Arn {
  return (service, resource) => `arn:${scope.partition}:${service}:*:${scope.account}:${resource}`;
}

/** EC2, Auto Scaling, ELB, KMS and DNS: new resources, and existing ones not tagged as another stack's. */
function taggedStatements(scope: TemplateResourceScope): PolicyStatement[] {
  const { partition } = scope;
  const names = scope.resourceNamePatterns;
  const arn = arnsOf(scope);
  const ofClmStacks = { StringLikeIfExists: { [`aws:ResourceTag/${STACK_NAME_TAG}`]: [...scope.stackNamePatterns] } };
  const zone = `arn:${partition}:route53:::hostedzone/*`;
  return [
    new PolicyStatement({ actions: ANY_RESOURCE, resources: ['*'] }),
    new PolicyStatement({
      actions: EC2_CREATE,
      // a new security group is in a VPC; RunInstances names the instance, its volumes, interfaces, subnet, groups,
      // launch template and image
      resources: [arn('ec2', '*'), `arn:${partition}:ec2:*::image/*`, `arn:${partition}:ec2:*::snapshot/*`],
    }),
    new PolicyStatement({
      actions: ['ec2:CreateTags'],
      resources: [arn('ec2', '*')],
      conditions: { StringEquals: { 'ec2:CreateAction': [...EC2_CREATE, 'CreateLaunchTemplateVersion'].map(bare) } },
    }),
    new PolicyStatement({
      actions: EC2_CHANGE,
      resources: ['security-group/*', 'security-group-rule/*', 'launch-template/*'].map((r) => arn('ec2', r)),
      conditions: ofClmStacks,
    }),
    new PolicyStatement({
      actions: AUTO_SCALING,
      resources: names.map((n) => arn('autoscaling', `autoScalingGroup:*:autoScalingGroupName/${n}`)),
      conditions: ofClmStacks,
    }),
    new PolicyStatement({
      actions: LOAD_BALANCING,
      resources: ['loadbalancer/*', 'targetgroup/*', 'listener/*'].map((r) => arn('elasticloadbalancing', r)),
      conditions: ofClmStacks,
    }),
    new PolicyStatement({ actions: KMS_KEY, resources: [arn('kms', 'key/*')], conditions: ofClmStacks }),
    new PolicyStatement({
      actions: KMS_ALIAS,
      resources: [...names.map((n) => arn('kms', `alias/${n}`)), arn('kms', 'key/*')],
      conditions: ofClmStacks,
    }),
    new PolicyStatement({
      actions: ['route53:ChangeResourceRecordSets'],
      resources: [zone],
      conditions: {
        'ForAllValues:StringLike': { 'route53:ChangeResourceRecordSetsNormalizedRecordNames': lowerCase(names) },
      },
    }),
    new PolicyStatement({
      actions: ['route53:GetHostedZone', 'route53:ListResourceRecordSets', 'route53:GetChange'],
      resources: [zone, `arn:${partition}:route53:::change/*`],
    }),
  ];
}

/** Logs, SNS, SQS, S3, EventBridge and SSM documents: only with the resource name patterns. */
function namedStatements(scope: TemplateResourceScope): PolicyStatement[] {
  const { partition } = scope;
  const names = scope.resourceNamePatterns;
  const arn = arnsOf(scope);
  const logGroups = [...names, ...(scope.logGroupNamePatterns ?? [])];
  return [
    new PolicyStatement({
      actions: LOGS,
      resources: logGroups.flatMap((n) => [arn('logs', `log-group:${n}`), arn('logs', `log-group:${n}:*`)]),
    }),
    // a subscription filter names its destination too (a log destination, often of a central logging account)
    new PolicyStatement({
      actions: ['logs:PutSubscriptionFilter'],
      resources: [`arn:${partition}:logs:*:*:destination:*`],
    }),
    new PolicyStatement({ actions: SNS, resources: names.map((n) => arn('sns', n)) }),
    new PolicyStatement({ actions: SQS, resources: names.map((n) => arn('sqs', n)) }),
    new PolicyStatement({ actions: S3_BUCKET, resources: lowerCase(names).map((n) => `arn:${partition}:s3:::${n}`) }),
    new PolicyStatement({ actions: EVENTS, resources: names.map((n) => arn('events', `rule/${n}`)) }),
    new PolicyStatement({ actions: SSM_DOCUMENT, resources: names.map((n) => arn('ssm', `document/${n}`)) }),
    // AMI ids from AWS's public parameters (AWS::SSM::Parameter::Value<AWS::EC2::Image::Id> template parameters)
    new PolicyStatement({
      actions: ['ssm:GetParameters', 'ssm:GetParameter'],
      resources: [`arn:${partition}:ssm:*::parameter/aws/service/*`],
    }),
  ];
}

/** S3 bucket names and DNS names are lower case. */
function lowerCase(names: readonly string[]): string[] {
  return [...new Set(names.map((n) => n.toLowerCase()))];
}

/** `ec2:CreateAction` takes the API name without the service prefix. */
function bare(action: string): string {
  return action.slice(action.indexOf(':') + 1);
}
