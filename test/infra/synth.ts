// Test support: synthesize the CLM stacks offline (bundling skipped, no CloudFormation validation).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ClmStatefulStack } from '../../infra/stacks/clm-stateful-stack';
import { ClmWorkflowStack } from '../../infra/stacks/clm-workflow-stack';
import type { ClmWorkflowStackProps } from '../../infra/stacks/clm-workflow-stack';
import { taskGrants } from '../../infra/task-grants';
import { TASK_CATALOGUE } from '../../lambdas/tasks/catalogue';

export const REPO_ROOT = join(__dirname, '..', '..');

/** The context of cdk.json (the feature flags): the CLI passes it to the app, so the tests do too. */
export function cdkJsonContext(): Record<string, unknown> {
  return (
    (JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> }).context ??
    {}
  );
}

export function testApp(): App {
  return new App({
    builtinCloudFormationValidation: false,
    context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] },
  });
}

export type WorkflowOptions = Omit<ClmWorkflowStackProps, 'table' | 'artifactBucket'>;

export const TOKEN_SECRET = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:clm-tokens-AbCdEf';

/** A workflow stack with a registry, a config source and a token secret (same-account mode). */
export const CONFIGURED: WorkflowOptions = {
  registryUri: 'https://registry.example.org',
  configSources: ['main:git:https://github.com/example/kubernetes-on-aws.git'],
  tokenSecretArn: TOKEN_SECRET,
};

/** The names of the catalogue's tasks, one function each. */
export const TASK_NAMES = TASK_CATALOGUE.map((task) => task.name);

/** What the catalogue task `name` is granted (infra/task-grants.ts). */
export const grantsOf = (name: string) => taskGrants(TASK_CATALOGUE.find((task) => task.name === name)!);

export function synthClm(options: WorkflowOptions = {}) {
  const app = testApp();
  const stateful = new ClmStatefulStack(app, 'ClmStateful');
  const workflow = new ClmWorkflowStack(app, 'ClmWorkflow', {
    table: stateful.table,
    artifactBucket: stateful.artifactBucket,
    ...options,
  });
  return {
    app,
    stateful,
    workflow,
    statefulTemplate: Template.fromStack(stateful),
    workflowTemplate: Template.fromStack(workflow),
  };
}

export type PolicyStatementJson = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: unknown };

/** All Allow statements of the IAM policies attached to `roleLogicalId`. */
export function statementsOf(template: Template, roleLogicalId: string): PolicyStatementJson[] {
  const policies = template.findResources('AWS::IAM::Policy');
  return Object.values(policies)
    .filter((p: any) => (p.Properties.Roles as unknown[]).some((r: any) => r.Ref === roleLogicalId))
    .flatMap((p: any) => p.Properties.PolicyDocument.Statement as PolicyStatementJson[]);
}

export function actionsOf(statements: readonly PolicyStatementJson[]): string[] {
  return statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
}

/** Logical ID of the single resource of `type` whose logical ID starts with `prefix`. */
export function logicalId(template: Template, type: string, prefix: string): string {
  const ids = Object.keys(template.findResources(type)).filter((id) => id.startsWith(prefix));
  if (ids.length !== 1)
    throw new Error(`expected one ${type} starting with ${prefix}, found ${ids.join(', ') || 'none'}`);
  return ids[0];
}

/** Every action the execution role of `task` (`<task>Role`) is allowed. */
export function roleActions(template: Template, task: string): string[] {
  return actionsOf(statementsOf(template, logicalId(template, 'AWS::IAM::Role', `${task}Role`)));
}
