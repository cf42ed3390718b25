import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Capture, Match } from 'aws-cdk-lib/assertions';
import { z } from 'zod';
import { defineTask } from '../../lambdas/tasks/define-task';
import type { Template } from 'aws-cdk-lib/assertions';
import { ASL_FILES, functionPlaceholder, placeholdersIn, readAsl } from '../../lambdas/runtime/asl-files';
import { TASK_CATALOGUE } from '../../lambdas/tasks/catalogue';
import { taskGrants } from '../../infra/task-grants';
import { REPO_ROOT, actionsOf, logicalId, statementsOf, synthClm } from './synth';

const SECRET = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:clm-tokens-AbCdEf';

function stateMachineId(template: Template, prefix: 'ClusterUpdate' | 'NodePoolRollout'): string {
  return logicalId(template, 'AWS::StepFunctions::StateMachine', `${prefix}StateMachine`);
}

const TASK_FUNCTION_NAMES = TASK_CATALOGUE.map((task) => task.name);
const grantsOf = (name: string) => taskGrants(TASK_CATALOGUE.find((task) => task.name === name)!);

function roleActions(template: Template, task: string): string[] {
  return actionsOf(statementsOf(template, logicalId(template, 'AWS::IAM::Role', `${task}Role`)));
}

describe('ClmWorkflowStack', () => {
  const { workflowTemplate: template } = synthClm({
    registryUri: 'https://registry.example.org',
    configSources: ['main:git:https://github.com/example/kubernetes-on-aws.git'],
    tokenSecretArn: SECRET,
  });

  it('creates one task function per handler, each nodejs22.x on arm64 with tracing and JSON logs', () => {
    const functions = template.findResources('AWS::Lambda::Function');
    expect(Object.keys(functions)).toHaveLength(TASK_FUNCTION_NAMES.length);
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
    for (const task of TASK_FUNCTION_NAMES) {
      const fn = template.findResources('AWS::Lambda::Function')[logicalId(template, 'AWS::Lambda::Function', task)];
      expect(fn.Properties.Environment.Variables).toEqual(
        expect.objectContaining({
          POWERTOOLS_SERVICE_NAME: 'clm',
          CLM_TABLE_NAME: { 'Fn::ImportValue': expect.stringMatching(/^ClmStateful:ExportsOutputRefTable/) },
          CLM_ARTIFACT_BUCKET: { 'Fn::ImportValue': expect.stringMatching(/^ClmStateful:ExportsOutputRefArtifacts/) },
          CLM_REGISTRY: 'https://registry.example.org',
          CLM_CONFIG_SOURCES: 'main:git:https://github.com/example/kubernetes-on-aws.git',
          CLM_SECRET_ARN: SECRET,
          NODE_OPTIONS: '--enable-source-maps',
        }),
      );
      expect(fn.Properties.Environment.Variables.CLM_ASSUMED_ROLE).toBeUndefined();
    }
  });

  it('gives each function its own log group kept one month and an execution role with no managed policy', () => {
    template.resourcePropertiesCountIs('AWS::Logs::LogGroup', { RetentionInDays: 30 }, TASK_FUNCTION_NAMES.length);
    for (const task of TASK_FUNCTION_NAMES) {
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
      for (const task of TASK_FUNCTION_NAMES) {
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

  it('lets cluster-update invoke exactly its eleven task functions, and the rollout only RollNodePool', () => {
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
    expect(invoked('ClusterUpdate')).toEqual(ids(TASK_FUNCTION_NAMES.filter((t) => t !== 'RollNodePool')));
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
    template.resourceCountIs('AWS::CloudWatch::Alarm', 2);
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

  it('grants every task the table, renderers S3 writes, readers S3 reads only', () => {
    for (const task of TASK_FUNCTION_NAMES) {
      const actions = roleActions(template, task);
      expect({
        task,
        dynamodb:
          actions.includes('dynamodb:PutItem') &&
          actions.includes('dynamodb:UpdateItem') &&
          actions.includes('dynamodb:Query'),
      }).toEqual({ task, dynamodb: true });
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
        write: grantsOf(task).artifacts === 'write',
      });
      expect({ task, delete: actions.some((a) => a.startsWith('s3:DeleteObject')) }).toEqual({ task, delete: false });
    }
  });

  it('lets only the tasks that need tokens read the secret', () => {
    for (const task of TASK_FUNCTION_NAMES) {
      const reads = statementsOf(template, logicalId(template, 'AWS::IAM::Role', `${task}Role`)).filter((s) =>
        actionsOf([s]).includes('secretsmanager:GetSecretValue'),
      );
      expect({ task, reads: reads.map((s) => s.Resource) }).toEqual({
        task,
        reads: grantsOf(task).tokens ? [SECRET] : [],
      });
    }
  });

  it('same-account mode: deploys through a bounded CloudFormation service role, scoped by names and tags', () => {
    const stackRole = logicalId(template, 'AWS::IAM::Role', 'ClusterAccessStackRole');
    const role = template.findResources('AWS::IAM::Role')[stackRole];
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({ Principal: { Service: 'cloudformation.amazonaws.com' } }),
    ]);
    expect(role.Properties.ManagedPolicyArns).toBeUndefined(); // no PowerUserAccess any more
    expect(role.Properties.PermissionsBoundary).toEqual({
      Ref: logicalId(template, 'AWS::IAM::ManagedPolicy', 'ClusterAccessStackRoleStacksBoundary'),
    });
    const deploy = statementsOf(template, logicalId(template, 'AWS::IAM::Role', 'DeployStacksRole'));
    expect(deploy).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Action: 'iam:PassRole',
          Resource: { 'Fn::GetAtt': [stackRole, 'Arn'] },
          Condition: { StringEquals: { 'iam:PassedToService': 'cloudformation.amazonaws.com' } },
        }),
        expect.objectContaining({
          Action: ['cloudformation:CreateStack', 'cloudformation:DeleteStack', 'cloudformation:UpdateStack'],
          Resource: [
            { 'Fn::Join': ['', expect.arrayContaining([':stack/kube-*/*'])] },
            { 'Fn::Join': ['', expect.arrayContaining([':stack/nodepool-*/*'])] },
          ],
          Condition: { StringEquals: { 'cloudformation:RoleArn': { 'Fn::GetAtt': [stackRole, 'Arn'] } } },
        }),
      ]),
    );
    expect(actionsOf(deploy).filter((a) => a.startsWith('autoscaling:') || a.startsWith('ec2:'))).toEqual([]);
    const roll = statementsOf(template, logicalId(template, 'AWS::IAM::Role', 'RollNodePoolRole'));
    expect(roll).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Action: expect.arrayContaining(['autoscaling:TerminateInstanceInAutoScalingGroup']),
          Condition: { StringEquals: { 'autoscaling:ResourceTag/kubernetes.io/role/node-pool': 'true' } },
        }),
      ]),
    );
    // Instances are terminated through their group: no EC2 write, and no Auto Scaling write without the tag.
    expect(actionsOf(roll).filter((a) => a.startsWith('ec2:') && !a.startsWith('ec2:Describe'))).toEqual([]);
    for (const s of roll.filter((st) => actionsOf([st]).some((a) => /^autoscaling:(?!Describe)/.test(a))))
      expect(s.Condition).toBeDefined();
    expect(actionsOf(roll).filter((a) => a.startsWith('cloudformation:Create') || a === 'iam:PassRole')).toEqual([]);
    for (const task of ['Prepare', 'WaitForApiServer', 'ScaleDownControllers', 'Finalize', 'RecordProblem'] as const) {
      expect({
        task,
        cloud: roleActions(template, task).filter((a) => /^(cloudformation|autoscaling|ec2|kms|sts|iam):/.test(a)),
      }).toEqual({ task, cloud: [] });
    }
    // ApplyManifests deletes the cf-manifest stacks deletions.yaml names: stacks only, never nodes.
    const apply = roleActions(template, 'ApplyManifests');
    expect(apply).toEqual(expect.arrayContaining(['cloudformation:DeleteStack', 'iam:PassRole']));
    expect(apply.filter((a) => /^(autoscaling|ec2|kms):/.test(a))).toEqual([]);
    // Every task that writes stacks passes the service role (CLM_STACK_ROLE_ARN); the others do not get it.
    const functions = template.findResources('AWS::Lambda::Function');
    for (const task of TASK_FUNCTION_NAMES) {
      const fn = functions[logicalId(template, 'AWS::Lambda::Function', task)];
      expect({ task, stackRole: fn.Properties.Environment.Variables.CLM_STACK_ROLE_ARN }).toEqual({
        task,
        stackRole: grantsOf(task).cloud.includes('stacks-write') ? { 'Fn::GetAtt': [stackRole, 'Arn'] } : undefined,
      });
    }
  });

  it('cross-account mode: tasks may assume the named role only in the registry accounts, never iam::*', () => {
    const accounts = ['210987654321', '123456789012'];
    const { workflowTemplate: cross } = synthClm({
      assumedRoleName: 'cluster-lifecycle-manager',
      clusterAccountIds: accounts,
      externalId: 'clm-ext-1',
    });
    expect(
      Object.keys(cross.findResources('AWS::IAM::Role')).filter((id) => id.startsWith('ClusterAccessStackRole')),
    ).toEqual([]);
    for (const task of TASK_FUNCTION_NAMES) {
      const statements = statementsOf(cross, logicalId(cross, 'AWS::IAM::Role', `${task}Role`));
      const cloud = actionsOf(statements).filter((a) => /^(cloudformation|autoscaling|ec2|sts|iam):/.test(a));
      expect({ task, cloud }).toEqual({
        task,
        cloud: grantsOf(task).cloud.some((c) => c !== 'decrypt') ? ['sts:AssumeRole'] : [],
      });
      if (cloud.length > 0) {
        expect(statements.find((s) => s.Action === 'sts:AssumeRole')!.Resource).toEqual(
          [...accounts].sort().map((account) => ({
            'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:iam::${account}:role/cluster-lifecycle-manager`]],
          })),
        );
      }
      // aws:kms: items are decrypted with CLM's own identity in both modes.
      expect({ task, kms: actionsOf(statements).includes('kms:Decrypt') }).toEqual({
        task,
        kms: grantsOf(task).cloud.includes('decrypt'),
      });
      const fn = cross.findResources('AWS::Lambda::Function')[logicalId(cross, 'AWS::Lambda::Function', task)];
      expect(fn.Properties.Environment.Variables).toEqual(
        expect.objectContaining({
          CLM_ASSUMED_ROLE: 'cluster-lifecycle-manager',
          CLM_STACK_ROLE_NAME: 'cluster-lifecycle-manager-stacks',
          CLM_EXTERNAL_ID: 'clm-ext-1',
        }),
      );
      expect(fn.Properties.Environment.Variables.CLM_STACK_ROLE_ARN).toBeUndefined();
    }
  });

  it('lets the tasks that talk to API servers read the per-cluster token secrets under the prefix, and only those', () => {
    const { workflowTemplate: withPrefix } = synthClm({ clusterTokenSecretPrefix: 'clm/clusters/' });
    for (const task of TASK_FUNCTION_NAMES) {
      const reads = statementsOf(withPrefix, logicalId(withPrefix, 'AWS::IAM::Role', `${task}Role`)).filter((s) =>
        actionsOf([s]).includes('secretsmanager:GetSecretValue'),
      );
      expect({ task, reads: reads.map((s) => JSON.stringify(s.Resource)) }).toEqual({
        task,
        reads: TASK_CATALOGUE.find((t) => t.name === task)!.ports.kube
          ? [expect.stringContaining(':secret:clm/clusters/*')]
          : [],
      });
    }
  });

  it('cross-account mode in an organisation: any account, but only with aws:ResourceOrgID', () => {
    const { workflowTemplate: org } = synthClm({ assumedRoleName: 'clm', organizationId: 'o-abcdefghij' });
    const statement = statementsOf(org, logicalId(org, 'AWS::IAM::Role', 'DeployStacksRole')).find(
      (s) => s.Action === 'sts:AssumeRole',
    )!;
    expect(statement.Condition).toEqual({ StringEquals: { 'aws:ResourceOrgID': 'o-abcdefghij' } });
  });

  it('fails cross-account mode without the cluster accounts or an organisation, and on a bad account id', () => {
    expect(() => synthClm({ assumedRoleName: 'clm' })).toThrow('set clusterAccountIds');
    expect(() => synthClm({ assumedRoleName: 'clm', clusterAccountIds: ['12345'] })).toThrow(
      'clusterAccountIds: "12345" is not a 12-digit AWS account id',
    );
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
      tokenSecretArn: SECRET,
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
