/**
 * cdk-nag (v3, CDK `Validations`) acknowledgements. Rules that report per-finding IDs (IAM4 managed policies,
 * IAM5 wildcards) are acknowledged finding by finding, and only when the finding matches a justification below:
 * a new wildcard that nobody explained stays a violation and fails synth and the infra tests.
 */
import { CfnResource, Validations } from 'aws-cdk-lib';
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
    for (const rule of Object.keys(FINDING_RULES) as (keyof typeof FINDING_RULES)[]) {
      for (const finding of findingsOf(rule, node)) {
        const justified = justifications.find((j) => j.rule === rule && j.finding.test(finding));
        if (justified) Validations.of(node).acknowledge({ id: `${rule}[${finding}]`, reason: justified.reason });
      }
    }
  }
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
      'Actions without resource-level permissions: X-Ray (traces, sampling), CloudWatch Logs delivery for Step Functions logging, EC2 and Auto Scaling Describe*, CloudFormation ListStacks/ValidateTemplate, DynamoDB ListStreams (the registry stream trigger).',
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
      'sts:AssumeRole into cluster accounts: the account IDs come from the registry at run time; the role name is fixed.',
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding:
      /^Resource::arn:<AWS::Partition>:(cloudformation:<AWS::Region>:<AWS::AccountId>:(stack|changeSet)|autoscaling:<AWS::Region>:<AWS::AccountId>:autoScalingGroup:\*:autoScalingGroupName|ec2:<AWS::Region>:<AWS::AccountId>:instance|kms:<AWS::Region>:<AWS::AccountId>:key)\/\*$/,
    reason:
      'Same-account mode: cluster stacks, Auto Scaling groups, instances and KMS keys are named by the config repository, so the grants are scoped to this account and region by ARN pattern (instances further by the aws:autoscaling:groupName tag).',
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding: /^Resource::arn:<AWS::Partition>:iam::<AWS::AccountId>:(role|instance-profile|oidc-provider)\/\*$/,
    reason:
      'CloudFormation service role: node roles, instance profiles and OIDC providers are named by the cluster templates; only cloudformation.amazonaws.com can assume this role.',
  },
  {
    rule: 'AwsSolutions-IAM4',
    finding: /^Policy::arn:<AWS::Partition>:iam::aws:policy\/PowerUserAccess$/,
    reason:
      'CloudFormation service role: the cluster templates in the config repository declare VPC, EC2, ASG, ELB, Route 53... resources; only cloudformation.amazonaws.com can assume this role.',
  },
];
