import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Capture, Match } from 'aws-cdk-lib/assertions';
import * as z from 'zod';
import { defineTask, isStateMachineTask } from '../../lambdas/tasks/define-task';
import type { Template } from 'aws-cdk-lib/assertions';
import { ASL_FILES, functionPlaceholder, placeholdersIn, readAsl } from '../../lambdas/runtime/asl-files';
import { TASK_CATALOGUE } from '../../lambdas/tasks/catalogue';
import {
  CONFIGURED,
  REPO_ROOT,
  TASK_NAMES,
  TOKEN_SECRET,
  actionsOf,
  grantsOf,
  logicalId,
  roleActions,
  statementsOf,
  synthClm,
} from './synth';

function stateMachineId(template: Template, prefix: 'ClusterUpdate' | 'NodePoolRollout'): string {
  return logicalId(template, 'AWS::StepFunctions::StateMachine', `${prefix}StateMachine`);
}

describe('ClmWorkflowStack', () => {
  const { workflowTemplate: template } = synthClm(CONFIGURED);

  it('creates one task function per handler, each nodejs22.x on arm64 with tracing and JSON logs', () => {
    const functions = template.findResources('AWS::Lambda::Function');
    expect(Object.keys(functions)).toHaveLength(TASK_NAMES.length);
    for (const [id, fn] of Object.entries(functions)) {
      expect({
        id,
        runtime: fn.Properties.Runtime,
        arch: fn.Properties.Architectures,
        tracing: fn.Properties.TracingConfig,
      }).toEqual({ id, runtime: 'nodejs22.x', arch: ['arm64'], tracing: { Mode: 'Active' } });
      expect(fn.Properties.LoggingConfig.LogFormat).toBe('JSON');
      expect(fn.Properties.Handler).toBe('index.handler');
    }
  });

  it("sizes each function from its task's lambda sizing (512 MB / 60 s unless a task needs more)", () => {
    for (const { name: task, lambda } of TASK_CATALOGUE) {
      const id = logicalId(template, 'AWS::Lambda::Function', task);
      template.hasResourceProperties(
        'AWS::Lambda::Function',
        Match.objectLike({
          Description: Match.stringLikeRegexp(`^CLM ${task}:`),
          MemorySize: lambda?.memoryMb ?? 512,
          Timeout: lambda?.timeoutSeconds ?? 60,
        }),
      );
      expect(id).toMatch(new RegExp(`^${task}[0-9A-F]{8}$`));
    }
  });

  it('passes the table, bucket, registry, config sources and secret to every task', () => {
    for (const task of TASK_NAMES) {
      const fn = template.findResources('AWS::Lambda::Function')[logicalId(template, 'AWS::Lambda::Function', task)];
      expect(fn.Properties.Environment.Variables).toEqual(
        expect.objectContaining({
          POWERTOOLS_SERVICE_NAME: 'clm',
          CLM_TABLE_NAME: { 'Fn::ImportValue': expect.stringMatching(/^ClmStateful:ExportsOutputRefTable/) },
          CLM_ARTIFACT_BUCKET: { 'Fn::ImportValue': expect.stringMatching(/^ClmStateful:ExportsOutputRefArtifacts/) },
          CLM_REGISTRY: 'https://registry.example.org',
          CLM_CONFIG_SOURCES: 'main:git:https://github.com/example/kubernetes-on-aws.git',
          CLM_SECRET_ARN: TOKEN_SECRET,
          NODE_OPTIONS: '--enable-source-maps',
        }),
      );
      expect(fn.Properties.Environment.Variables.CLM_ASSUMED_ROLE).toBeUndefined();
    }
  });

  it('gives each function its own log group kept one month and an execution role with no managed policy', () => {
    template.resourcePropertiesCountIs('AWS::Logs::LogGroup', { RetentionInDays: 30 }, TASK_NAMES.length);
    for (const task of TASK_NAMES) {
      const roleId = logicalId(template, 'AWS::IAM::Role', `${task}Role`);
      expect(template.findResources('AWS::IAM::Role')[roleId].Properties.ManagedPolicyArns).toBeUndefined();
      const logStatement = statementsOf(template, roleId).find((s) => actionsOf([s]).includes('logs:PutLogEvents'))!;
      expect(logStatement.Resource).toEqual({
        'Fn::GetAtt': [logicalId(template, 'AWS::Logs::LogGroup', `${task}Logs`), 'Arn'],
      });
    }
  });

  it('loads both ASL files verbatim and substitutes every placeholder with the right ARN', () => {
    for (const [prefix, key] of [
      ['ClusterUpdate', 'clusterUpdate'],
      ['NodePoolRollout', 'nodePoolRollout'],
    ] as const) {
      const definition = new Capture();
      const substitutions = new Capture();
      template.hasResourceProperties(
        'AWS::StepFunctions::StateMachine',
        Match.objectLike({
          RoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp(`^${prefix}StateMachineRole`), 'Arn'] },
          DefinitionString: definition,
          DefinitionSubstitutions: substitutions,
        }),
      );
      expect(definition.asString()).toBe(readFileSync(join(REPO_ROOT, ASL_FILES[key]), 'utf8'));
      const values = substitutions.asObject();
      expect(Object.keys(values).sort()).toEqual(placeholdersIn(readAsl(key)));
      for (const task of TASK_NAMES) {
        const placeholder = functionPlaceholder(task);
        if (placeholder in values)
          expect(values[placeholder]).toEqual({
            'Fn::GetAtt': [logicalId(template, 'AWS::Lambda::Function', task), 'Arn'],
          });
      }
      if ('NodePoolRolloutStateMachineArn' in values)
        expect(values.NodePoolRolloutStateMachineArn).toEqual({ Ref: stateMachineId(template, 'NodePoolRollout') });
    }
  });

  it('logs ALL events without execution data and traces both state machines', () => {
    template.resourcePropertiesCountIs(
      'AWS::StepFunctions::StateMachine',
      {
        StateMachineType: 'STANDARD',
        LoggingConfiguration: Match.objectLike({ Level: 'ALL', IncludeExecutionData: false }),
        TracingConfiguration: { Enabled: true },
      },
      2,
    );
    template.resourcePropertiesCountIs(
      'AWS::Logs::LogGroup',
      { LogGroupName: Match.stringLikeRegexp('^/aws/vendedlogs/states/') },
      2,
    );
  });

  it('lets cluster-update invoke exactly its eighteen task functions, and the rollout only RollNodePool', () => {
    const machineTasks = TASK_CATALOGUE.filter(isStateMachineTask).map((t) => t.name);
    const invoked = (prefix: 'ClusterUpdate' | 'NodePoolRollout') =>
      statementsOf(template, logicalId(template, 'AWS::IAM::Role', `${prefix}StateMachineRole`))
        .filter((s) => actionsOf([s]).includes('lambda:InvokeFunction'))
        // One statement per function, or one for all of them (@aws-cdk/aws-iam:minimizePolicies): each function's ARN and ARN:*.
        .flatMap((s) => JSON.stringify(s.Resource).match(/"Fn::GetAtt":\["[A-Za-z0-9]+"/g) ?? [])
        .map((getAtt) => getAtt.slice('"Fn::GetAtt":["'.length, -1))
        .filter((id, index, all) => all.indexOf(id) === index)
        .sort();
    const ids = (tasks: readonly string[]) => tasks.map((t) => logicalId(template, 'AWS::Lambda::Function', t)).sort();
    expect(invoked('NodePoolRollout')).toEqual(ids(['RollNodePool']));
    expect(invoked('ClusterUpdate')).toEqual(ids(machineTasks.filter((t) => t !== 'RollNodePool')));
    expect(machineTasks).toHaveLength(19);
  });

  it('lets cluster-update start, watch and stop rollout executions (.sync) and nothing else in Step Functions', () => {
    const child = stateMachineId(template, 'NodePoolRollout');
    const statements = statementsOf(template, logicalId(template, 'AWS::IAM::Role', 'ClusterUpdateStateMachineRole'));
    expect(statements).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Action: 'states:StartExecution', Resource: { Ref: child } }),
        expect.objectContaining({
          Action: ['states:DescribeExecution', 'states:StopExecution'],
          Resource: { 'Fn::Join': ['', expect.arrayContaining([{ 'Fn::GetAtt': [child, 'Name'] }, ':*'])] },
        }),
        expect.objectContaining({
          Action: ['events:DescribeRule', 'events:PutRule', 'events:PutTargets'],
          Resource: {
            'Fn::Join': ['', expect.arrayContaining([':rule/StepFunctionsGetEventsForStepFunctionsExecutionRule'])],
          },
        }),
      ]),
    );
    expect(
      actionsOf(statements)
        .filter((a) => a.startsWith('states:'))
        .sort(),
    ).toEqual(['states:DescribeExecution', 'states:StartExecution', 'states:StopExecution']);
  });

  it('alarms on the first failed execution of each state machine', () => {
    template.resourcePropertiesCountIs('AWS::CloudWatch::Alarm', { Namespace: 'AWS/States' }, 2);
    for (const prefix of ['ClusterUpdate', 'NodePoolRollout'] as const) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/States',
        MetricName: 'ExecutionsFailed',
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
        Dimensions: [{ Name: 'StateMachineArn', Value: { Ref: stateMachineId(template, prefix) } }],
      });
    }
  });

  it('grants the table to the tasks whose ports keep state there, renderers S3 writes, readers S3 reads only', () => {
    for (const task of TASK_NAMES) {
      const actions = roleActions(template, task);
      expect({
        task,
        dynamodb:
          actions.includes('dynamodb:PutItem') &&
          actions.includes('dynamodb:UpdateItem') &&
          actions.includes('dynamodb:Query'),
      }).toEqual({ task, dynamodb: grantsOf(task).table });
      expect({ task, read: actions.includes('s3:GetObject*') }).toEqual({
        task,
        read: grantsOf(task).artifacts !== undefined,
      });
      // PutObject on the artefact bucket (stack writers also put large templates into the cluster account's CLM bucket).
      const artifactWrites = actionsOf(
        statementsOf(template, logicalId(template, 'AWS::IAM::Role', `${task}Role`)).filter((st) =>
          JSON.stringify(st.Resource).includes('Artifacts'),
        ),
      );
      expect({ task, write: artifactWrites.includes('s3:PutObject') }).toEqual({
        task,
        write: grantsOf(task).artifacts === 'write' || grantsOf(task).artifactKeys !== undefined,
      });
      expect({ task, delete: actions.some((a) => a.startsWith('s3:DeleteObject')) }).toEqual({ task, delete: false });
    }
  });

  it('lets only the tasks that need tokens read the secret, and only the webhook read the webhook secret', () => {
    const webhookSecret = { Ref: logicalId(template, 'AWS::SecretsManager::Secret', 'WebhookSecret') };
    for (const task of TASK_NAMES) {
      const reads = statementsOf(template, logicalId(template, 'AWS::IAM::Role', `${task}Role`)).filter((s) =>
        actionsOf([s]).includes('secretsmanager:GetSecretValue'),
      );
      expect({ task, reads: reads.flatMap((s) => [s.Resource].flat()) }).toEqual({
        task,
        reads: [
          ...(grantsOf(task).tokens ? [TOKEN_SECRET] : []),
          ...(grantsOf(task).webhookSecret ? [webhookSecret] : []),
        ],
      });
    }
    expect(TASK_NAMES.filter((t) => grantsOf(t).webhookSecret)).toEqual(['GithubWebhook']);
  });

  it('warns at synth when the registry or the config sources are missing', () => {
    const { workflow } = synthClm();
    const warnings = workflow.node.metadata.filter((m) => m.type === 'aws:cdk:warning').map((m) => String(m.data));
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining('registryUri is not set'),
        expect.stringContaining('configSources is not set'),
      ]),
    );
  });

  it('picks up a new catalogue entry (function, substitution, IAM) with no other edit', () => {
    // Arrange: a task that deploys stacks, and the cluster-update ASL with a state that calls it after Prepare
    const probe = defineTask({
      name: 'ProbeStacks',
      description: 'looks at stacks',
      input: z.unknown(),
      output: z.unknown(),
      ports: { stacks: 'write', progress: 'write', sources: 'read' },
      step: async () => ({}),
    });
    const asl = JSON.parse(readAsl('clusterUpdate')) as { States: Record<string, Record<string, unknown>> };
    asl.States.Probe = { ...asl.States.Prepare, Resource: '${ProbeStacksFunctionArn}', Next: asl.States.Prepare!.Next };
    asl.States.Prepare!.Next = 'Probe';

    // Act
    const { workflowTemplate: t } = synthClm({
      tokenSecretArn: TOKEN_SECRET,
      tasks: [...TASK_CATALOGUE, probe],
      definitions: { clusterUpdate: JSON.stringify(asl, null, 2) },
    });

    // Assert
    const fnId = logicalId(t, 'AWS::Lambda::Function', 'ProbeStacks');
    t.hasResourceProperties(
      'AWS::Lambda::Function',
      Match.objectLike({ Description: 'CLM ProbeStacks: looks at stacks' }),
    );
    const substitutions = new Capture();
    t.hasResourceProperties(
      'AWS::StepFunctions::StateMachine',
      Match.objectLike({
        RoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ClusterUpdateStateMachineRole'), 'Arn'] },
        DefinitionSubstitutions: substitutions,
      }),
    );
    expect(substitutions.asObject().ProbeStacksFunctionArn).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
    const actions = roleActions(t, 'ProbeStacks');
    expect(actions).toEqual(
      expect.arrayContaining(['cloudformation:CreateStack', 'dynamodb:PutItem', 'secretsmanager:GetSecretValue']),
    );
    expect(actions).not.toContain('autoscaling:SetDesiredCapacity');
    // No artefact writes (stack writers put large templates into the cluster account's CLM bucket, not this one).
    const artifactActions = actionsOf(
      statementsOf(t, logicalId(t, 'AWS::IAM::Role', 'ProbeStacksRole')).filter((st) =>
        JSON.stringify(st.Resource).includes('Artifacts'),
      ),
    );
    expect(artifactActions).not.toContain('s3:PutObject');
  });
});
