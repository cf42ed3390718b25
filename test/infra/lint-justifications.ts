/**
 * Why each cfn-lint and checkov finding on the synthesized templates is acceptable (test/infra/lint-templates.sh).
 * Like infra/nag.ts, a finding is accepted only when a justification matches its rule and resource: a new finding
 * that nobody explained fails the script. Resources are matched as `<Type>.<LogicalId>` (checkov's spelling).
 */

export interface LintJustification {
  readonly tool: 'cfn-lint' | 'checkov';
  /** cfn-lint rule id (W3005) or checkov check id (CKV_AWS_116). */
  readonly rule: string;
  /** `<Type>.<LogicalId>`, e.g. `AWS::Lambda::Function.Prepare75E8D311`. */
  readonly resource: RegExp;
  readonly reason: string;
}

const TASK = /^AWS::Lambda::Function\.[A-Za-z]+[0-9A-F]{8}$/;
const BOUNDARIES = /^AWS::IAM::ManagedPolicy\.\w*(StackRoleStacksBoundary|StackRoleNodeRoleBoundary)[0-9A-F]{8}$/;
const STACK_ROLE = /^AWS::IAM::Role\.(ClusterAccessStackRole|StackRole)[0-9A-F]{8}$/;

export const LINT_JUSTIFICATIONS: readonly LintJustification[] = [
  {
    tool: 'cfn-lint',
    rule: 'W3005',
    resource: /^AWS::(Lambda::Function|StepFunctions::StateMachine)\./,
    reason:
      'CDK adds DependsOn on the execution role (and its default policy) so the policy exists before the function or state machine first runs; the Ref/GetAtt alone would not order the policy.',
  },
  {
    tool: 'checkov',
    rule: 'CKV_AWS_116',
    resource: TASK,
    reason:
      'Task functions are invoked synchronously by Step Functions, whose Retry/Catch handle failures (RecordProblem); a DLQ only applies to asynchronous invocations.',
  },
  {
    tool: 'checkov',
    rule: 'CKV_AWS_117',
    resource: TASK,
    reason:
      'Tasks reach the registry, GitHub and Kubernetes API servers on the internet and AWS APIs; a VPC would add NAT gateways and no isolation the IAM scoping does not give.',
  },
  {
    tool: 'checkov',
    rule: 'CKV_AWS_115',
    resource: TASK,
    reason:
      'Concurrency is bounded by the state machines (one execution per cluster, a concurrency cap in dispatch); reserved concurrency would throttle retries of a busy fleet.',
  },
  {
    tool: 'checkov',
    rule: 'CKV_AWS_173',
    resource: TASK,
    reason:
      'The environment holds names and ARNs only (table, bucket, registry URL, secret ARN, role names); secret values are read from Secrets Manager at run time and never put in the environment.',
  },
  {
    tool: 'checkov',
    rule: 'CKV_AWS_158',
    resource: /^AWS::Logs::LogGroup\./,
    reason:
      'Logs carry no secrets (tokens never reach a log line, test/adapters/kube/kube-credentials-never-shown.test.ts); CloudWatch encrypts them at rest with service keys.',
  },
  {
    tool: 'checkov',
    rule: 'CKV_AWS_119',
    resource: /^AWS::DynamoDB::Table\.Table[0-9A-F]{8}$/,
    reason:
      'Progress, leases and status hold no secrets; AWS-owned encryption at rest, point-in-time recovery and deletion protection are on. A customer key is an operator choice (cost, key policy).',
  },
  {
    tool: 'checkov',
    rule: 'CKV_AWS_18',
    resource: /^AWS::S3::Bucket\.Artifacts[0-9A-F]{8}$/,
    reason:
      'As for cdk-nag AwsSolutions-S1 (infra/stacks/clm-stateful-stack.ts): only the task functions write here, content-addressed and versioned; access logs would need a second bucket for no new information.',
  },
  ...(['CKV_AWS_107', 'CKV_AWS_108', 'CKV_AWS_109', 'CKV_AWS_111'] as const).map((rule): LintJustification => ({
    tool: 'checkov',
    rule,
    resource: STACK_ROLE,
    reason:
      "The CloudFormation service role of cluster stacks creates whatever the config repository declares (EC2, ASG, ELB, IAM roles, ...); only cloudformation.amazonaws.com can assume it, its IAM rights are limited to the cluster stacks' names, and its permissions boundary caps it (infra/constructs/cluster-stack-role.ts).",
  })),
  ...(['CKV_AWS_107', 'CKV_AWS_108', 'CKV_AWS_109', 'CKV_AWS_111'] as const).map((rule): LintJustification => ({
    tool: 'checkov',
    rule,
    resource: BOUNDARIES,
    reason:
      'A permissions boundary grants nothing by itself: it is the ceiling of the stack role (stacks boundary, with denies on role escalation) or of the roles templates create (node-role boundary: what kubelets, the cluster autoscaler and pods need, e.g. ECR tokens and S3 node files).',
  })),
  {
    tool: 'checkov',
    rule: 'CKV_AWS_258',
    resource: /^AWS::Lambda::Url\.GithubWebhookFunctionUrl[0-9A-F]{8}$/,
    reason:
      'GitHub cannot sign requests with SigV4, so the webhook URL has AuthType NONE; the function authenticates every delivery itself (HMAC X-Hub-Signature-256 over the raw body with the webhook secret, constant-time compare, replayed delivery ids refused) before it reads or writes anything, and answers 401 otherwise (docs/fleet.md, "The webhook").',
  },
  {
    tool: 'checkov',
    rule: 'CKV_AWS_149',
    resource: /^AWS::SecretsManager::Secret\.WebhookSecret[0-9A-F]{8}$/,
    reason:
      'The created webhook secret is encrypted with the AWS managed key of Secrets Manager; only the GithubWebhook role may read it (IAM, one row of infra/task-grants.ts). A customer managed key would add cost and a key policy without narrowing who can decrypt it. Operators who want their own key pass webhookSecretArn.',
  },
  {
    tool: 'checkov',
    rule: 'CKV_AWS_26',
    resource: /^AWS::SNS::Topic\.MonitoringAlarms[0-9A-F]{8}$/,
    reason:
      'The alarm topic carries CloudWatch alarm notifications (alarm names and states, no secrets). CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key, so encryption would need a customer managed key with a CloudWatch grant, for data that is not sensitive.',
  },
];

export interface Finding {
  readonly tool: 'cfn-lint' | 'checkov';
  readonly rule: string;
  readonly resource: string;
  readonly file: string;
  readonly message: string;
}

/** The findings no justification covers. */
export function unexplained(findings: readonly Finding[], justifications = LINT_JUSTIFICATIONS): Finding[] {
  return findings.filter(
    (f) => !justifications.some((j) => j.tool === f.tool && j.rule === f.rule && j.resource.test(f.resource)),
  );
}
