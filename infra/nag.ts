/**
 * cdk-nag (v3, CDK `Validations`) acknowledgements. Rules that report per-finding IDs (IAM4 managed policies,
 * IAM5 wildcards) are acknowledged finding by finding, and only when the finding matches a justification below:
 * a new wildcard that nobody explained stays a violation and fails synth and the infra tests.
 */
import { CfnResource, Stack, Token, Validations } from 'aws-cdk-lib';
import type { PolicyValidationPluginReport } from 'aws-cdk-lib';
import { AwsSolutionsChecks, rules } from 'cdk-nag';
import type { NagPackProps } from 'cdk-nag';
import type { IConstruct } from 'constructs';

export interface FindingJustification {
  readonly rule: 'AwsSolutions-IAM4' | 'AwsSolutions-IAM5';
  /** Matched against the finding, e.g. `Resource::arn:<AWS::Partition>:cloudformation:...:stack/*`. */
  readonly finding: RegExp;
  readonly reason: string;
}

/** Acknowledge a rule without findings on a construct and everything under it. */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}

const FINDING_RULES = {
  'AwsSolutions-IAM4': rules.iam.IAMNoManagedPolicies,
  'AwsSolutions-IAM5': rules.iam.IAMNoWildcardPermissions,
} as const;

/** The findings a finding-based rule reports for one resource (empty when compliant or not applicable). */
export function findingsOf(rule: keyof typeof FINDING_RULES, node: CfnResource): string[] {
  const result = (FINDING_RULES[rule] as unknown as (n: CfnResource) => unknown)(node);
  return Array.isArray(result) ? result.map(String) : [];
}

/**
 * For every IAM resource under `scope`, acknowledge each IAM4/IAM5 finding that a justification matches, with that
 * justification's reason. Must run after synthesis has resolved cross-stack references (finding IDs name the
 * export then), which is why ClmNagChecks calls it from validation rather than from an Aspect.
 */
export function acknowledgeJustifiedFindings(scope: IConstruct, justifications: readonly FindingJustification[]): void {
  for (const node of scope.node.findAll()) {
    if (!(node instanceof CfnResource) || !node.cfnResourceType.startsWith('AWS::IAM::')) continue;
    const stack = Stack.of(node);
    for (const rule of Object.keys(FINDING_RULES) as (keyof typeof FINDING_RULES)[]) {
      for (const finding of findingsOf(rule, node)) {
        const asTokens = withPseudoParameters(finding, stack);
        const justified = justifications.find((j) => j.rule === rule && j.finding.test(asTokens));
        if (justified) Validations.of(node).acknowledge({ id: `${rule}[${finding}]`, reason: justified.reason });
      }
    }
  }
}

/**
 * A finding as it reads in an environment-agnostic stack: in a stack with a concrete account and region (the CDK CLI
 * sets CDK_DEFAULT_ACCOUNT/CDK_DEFAULT_REGION whenever it has credentials), CDK renders the ARNs of its own grants
 * with the literal partition, region and account (`arn:aws:states:eu-west-1:123456789012:...`) where an agnostic stack
 * has `<AWS::Partition>`, `<AWS::Region>`, `<AWS::AccountId>`. Only the stack's own values are put back, and only in
 * an ARN's partition/region/account fields, so a literal naming another account or region still has to be justified.
 */
export function withPseudoParameters(finding: string, stack: Pick<Stack, 'partition' | 'region' | 'account'>): string {
  const literal = (value: string) => (Token.isUnresolved(value) ? undefined : value);
  const partition = literal(stack.partition);
  const region = literal(stack.region);
  const account = literal(stack.account);
  if (!partition && !region && !account) return finding;
  return finding.replace(
    /arn:([^:<>]*|<AWS::Partition>):([\w-]+):([^:<>]*|<AWS::Region>):([^:<>]*|<AWS::AccountId>):/g,
    (_arn: string, p: string, service: string, r: string, a: string) =>
      `arn:${p === partition ? '<AWS::Partition>' : p}:${service}:${r !== '' && r === region ? '<AWS::Region>' : r}:${
        a !== '' && a === account ? '<AWS::AccountId>' : a
      }:`,
  );
}

/**
 * AwsSolutionsChecks that first acknowledges the findings CLM_JUSTIFICATIONS explains. Register it with
 * `Validations.of(app).addPlugins(new ClmNagChecks(app))`; tests call `validateScope(app)` after `app.synth()`.
 */
export class ClmNagChecks extends AwsSolutionsChecks {
  constructor(
    scope?: IConstruct,
    props?: NagPackProps,
    private readonly justifications: readonly FindingJustification[] = CLM_JUSTIFICATIONS,
  ) {
    super(scope, props);
  }

  override validateScope(scope: IConstruct): PolicyValidationPluginReport {
    acknowledgeJustifiedFindings(scope, this.justifications);
    return super.validateScope(scope);
  }
}

/**
 * How cdk-nag prints the ARN of a resource whose logical ID contains `name`: `<Name1234.Arn>` in the same stack,
 * `<Stack>:ExportsOutputFnGetAttName1234Arn5678` when it comes from another stack.
 */
function ref(name: string): string {
  return `(?:<[^>]*${name}[^>]*\\.Arn>|[\\w-]+:ExportsOutputFnGetAtt\\w*${name}\\w*Arn\\w*)`;
}

/** Why each wildcard in the CLM stacks is there. */
export const CLM_JUSTIFICATIONS: readonly FindingJustification[] = [
  {
    rule: 'AwsSolutions-IAM5',
    finding: /^Resource::\*$/,
    reason:
      'Actions without resource-level permissions: X-Ray (traces, sampling), CloudWatch Logs delivery for Step Functions logging, EC2 and Auto Scaling Describe*, ACM ListCertificates/GetCertificate (load_balancer_certificate is matched by name among all certificates of the account), CloudFormation ListStacks/ValidateTemplate, DynamoDB ListStreams (the registry stream trigger).',
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding: new RegExp(`^Resource::${ref('Table')}/index/\\*$`),
    reason: "CDK grantReadWriteData includes the table's indexes; the progress table is the tasks' only state store.",
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding: new RegExp(`^Resource::${ref('Artifacts')}/\\*$`),
    reason: 'Artefact objects have content-addressed keys chosen at run time.',
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding: /^Action::s3:(GetObject|GetBucket|List|Abort)\*$/,
    reason:
      'The action groups of CDK grantRead/grantPut on the artefact bucket (read objects and versions, abort own multipart uploads).',
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding: /^Resource::<[^>]*\.Arn>:\*$/,
    reason:
      'CDK grantInvoke covers a task function and its versions/aliases (<function ARN>:*), for the state machines and the scheduler that invoke them.',
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding: /^Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:<[^>]*\.Name>:\*$/,
    reason:
      'Executions are named at run time: startExecution.sync:2 describes and stops node-pool-rollout executions, and the dispatcher describes and redrives cluster-update executions (named per cluster and target version).',
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding: /^Resource::arn:<AWS::Partition>:iam::\*:role\/[\w+=,.@-]+$/,
    reason:
      'sts:AssumeRole on the one role name in any account of the organisation: the statement carries an aws:ResourceOrgID condition (organizationId), so only accounts of that organisation qualify.',
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding:
      /^Resource::arn:<AWS::Partition>:(cloudformation:(<AWS::Region>|\*):<AWS::AccountId>:(stack\/\*|stack\/[\w*?-]+\/\*|changeSet\/clm-plan-\*\/\*)|autoscaling:(<AWS::Region>|\*):<AWS::AccountId>:autoScalingGroup:\*:autoScalingGroupName\/\*|kms:(<AWS::Region>|\*):<AWS::AccountId>:key\/\*|ec2:(<AWS::Region>|\*):<AWS::AccountId>:(volume|security-group|network-interface|instance)\/\*|elasticloadbalancing:(<AWS::Region>|\*):<AWS::AccountId>:(loadbalancer|targetgroup)\/\*|servicequotas:\*:<AWS::AccountId>:ec2\/L-[0-9A-F]{8})$/,
    reason:
      'Cluster stacks, Auto Scaling groups and KMS keys are named by the config repository: reads cover the account, writes only stacks matching clusterStackNamePatterns and only through the CloudFormation service role (cloudformation:RoleArn), Auto Scaling writes only groups tagged kubernetes.io/role/node-pool=true, EC2 TerminateInstances only instances carrying the karpenter.sh/nodepool tag (a Null condition), change sets only CLM plans (clm-plan-*), KMS keys of the cluster account only DescribeKey (the etcd stack alias) and Encrypt (the nodes files bundles, with the main stack keys); CLM own keys only Decrypt; decommission deletes the load balancers, target groups, security groups, volumes and network interfaces a cluster left outside its stacks, which the adapter picks by the kubernetes.io/cluster/<cluster>=owned tag (IAM cannot condition on a tag key that names the cluster); Service Quotas GetServiceQuota reads the On-Demand vCPU quotas by code, in every region of a cluster account.',
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding:
      /^Resource::arn:<AWS::Partition>:s3:::cluster-lifecycle-manager-<AWS::AccountId>-(<AWS::Region>|\*)(\/\*)?$/,
    reason:
      "CLM's bucket of the cluster account (cluster-lifecycle-manager-<account>-<region>, one per region): templates over 51,200 bytes go through it, and the nodes' files bundles live there (<local id>/<master|worker|etcd>/<sha512>.userdata, content-addressed).",
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding:
      /^Resource::arn:<AWS::Partition>:iam::<AWS::AccountId>:((role|instance-profile|policy)\/[\w*?-]*\*[\w*?-]*|oidc-provider\/\*|role\/aws-service-role\/\*)$/,
    reason:
      "CloudFormation service role of cluster stacks: IAM roles, instance profiles and policies only with the cluster stacks' name patterns (and every role must carry the node-role boundary, enforced by the stacks boundary), OIDC providers of the clusters, service-linked roles; only cloudformation.amazonaws.com can assume it.",
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding:
      /^Action::(ec2|autoscaling|elasticloadbalancing|kms|logs|sns|sqs|s3|route53|cloudwatch|events|ssm|acm|eks|ecr|application-autoscaling):\*$/,
    reason:
      'CloudFormation service role of cluster stacks and its permissions boundary: the config repository declares resources of these services (VPC, EC2, ASG, ELB, ...); IAM is granted separately and restricted, and the boundary caps the role; only cloudformation.amazonaws.com can assume it.',
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding: /^Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:[\w/+=.@-]+\*$/,
    reason:
      'Per-cluster API token secrets (config item kube_token_secret) are named per cluster under clusterTokenSecretPrefix; read-only (GetSecretValue), and only by the tasks that use tokens.',
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding: /^Action::(ec2|autoscaling|elasticloadbalancing):Describe\*$/,
    reason:
      'Describe calls, which support no resource-level permissions: what kubelets and the cluster autoscaler need (node-role boundary), and what CloudFormation reads after creating the resources of cluster templates (stack role).',
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding: new RegExp(
      `^Resource::arn:<AWS::Partition>:(${[
        'ec2:\\*:<AWS::AccountId>:(\\*|launch-template/\\*|security-group(-rule)?/\\*)',
        'ec2:\\*::(image|snapshot)/\\*',
        'elasticloadbalancing:\\*:<AWS::AccountId>:(loadbalancer|targetgroup|listener)/\\*',
        'kms:\\*:<AWS::AccountId>:(key/\\*|alias/NAME)',
        'autoscaling:\\*:<AWS::AccountId>:autoScalingGroup:\\*:autoScalingGroupName/NAME',
        'events:\\*:<AWS::AccountId>:rule/NAME',
        'logs:\\*:<AWS::AccountId>:log-group:NAME(:\\*)?',
        'logs:\\*:\\*:destination:\\*',
        '(sns|sqs):\\*:<AWS::AccountId>:NAME',
        'ssm:\\*:<AWS::AccountId>:document/NAME',
        'ssm:\\*::parameter/aws/service/\\*',
        's3:::NAME',
        'route53:::(hostedzone|change)/\\*',
        'iam::<AWS::AccountId>:oidc-provider/NAME',
      ]
        .join('|')
        .replaceAll('NAME', '[\\w*?./-]+')})$`,
    ),
    reason:
      "CloudFormation service role of cluster stacks (infra/constructs/template-resource-statements.ts): named resources only with the cluster stacks' resource name patterns; resources named by an id (security groups, launch templates, load balancers, KMS keys) only when not tagged as another stack's (aws:cloudformation:stack-name); new EC2 resources and instances of Auto Scaling groups; DNS records only with those names (route53:ChangeResourceRecordSetsNormalizedRecordNames); AWS's public SSM parameters (AMI ids); only cloudformation.amazonaws.com can assume it.",
  },
];
