// The deployed fleet: the webhook endpoint and its secret, the schedule, the registry stream, the rules on the
// default bus, the dispatcher's access, the alarm topic and the dashboard, all derived from the task catalogue.
import { Match } from 'aws-cdk-lib/assertions';
import type { Template } from 'aws-cdk-lib/assertions';
import * as z from 'zod';
import { PassRequest } from '../../lambdas/contracts/triggers';
import { TASK_CATALOGUE } from '../../lambdas/tasks/catalogue';
import { defineTask } from '../../lambdas/tasks/define-task';
import { actionsOf, logicalId, statementsOf, synthClm } from './synth';

const WEBHOOK_SECRET = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:clm-webhook-AbCdEf';
const fnId = (t: Template, task: string) => logicalId(t, 'AWS::Lambda::Function', task);
const envOf = (t: Template, task: string) =>
  t.findResources('AWS::Lambda::Function')[fnId(t, task)].Properties.Environment.Variables;
const roleActions = (t: Template, task: string) =>
  actionsOf(statementsOf(t, logicalId(t, 'AWS::IAM::Role', `${task}Role`)));

/** What EventBridge hands the target: the rule's input template with the event's values in place. */
function transformed(target: { InputTransformer: { InputTemplate: string } }, values: Record<string, string>) {
  const template = target.InputTransformer.InputTemplate;
  return JSON.parse(template.replace(/<detail-([\w]+)>/g, (_, key: string) => JSON.stringify(values[key])));
}

describe('the fleet in the workflow stack', () => {
  const { workflowTemplate: template, statefulTemplate } = synthClm({
    registryUri: 'dynamodb://',
    configSources: ['main:git:https://github.com/acme/cluster-config'],
    alarmEmail: 'ops@example.org',
    fleetSettings: { maxConcurrent: '20', waveOrder: 'dev,prod' },
  });

  it('serves the webhook from a Function URL without IAM auth (GitHub signs each delivery) and outputs it', () => {
    template.resourceCountIs('AWS::Lambda::Url', 1);
    template.hasResourceProperties('AWS::Lambda::Url', {
      AuthType: 'NONE',
      TargetFunctionArn: { 'Fn::GetAtt': [fnId(template, 'GithubWebhook'), 'Arn'] },
    });
    expect(Object.keys(template.findOutputs('*')).some((k) => k.includes('GithubWebhookUrl'))).toBe(true);
    // Anyone may call the URL, and only the URL: the public invoke permission is limited to Function URL calls.
    const publicInvokes = Object.values(template.findResources('AWS::Lambda::Permission'))
      .map((p) => p.Properties)
      .filter((p) => p.Principal === '*');
    expect(publicInvokes.map((p) => [p.Action, p.FunctionUrlAuthType ?? p.InvokedViaFunctionUrl])).toEqual([
      ['lambda:InvokeFunctionUrl', 'NONE'],
      ['lambda:InvokeFunction', true],
    ]);
  });

  it('creates the webhook secret when none is given, and lets only the webhook read it', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({
        PasswordLength: 40,
        ExcludePunctuation: true,
        ExcludeCharacters: '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
      }),
    });
    const secret = logicalId(template, 'AWS::SecretsManager::Secret', 'WebhookSecret');
    expect(envOf(template, 'GithubWebhook').CLM_WEBHOOK_SECRET_ARN).toEqual({ Ref: secret });
    const { workflowTemplate: given } = synthClm({ webhookSecretArn: WEBHOOK_SECRET });
    given.resourceCountIs('AWS::SecretsManager::Secret', 0);
    expect(envOf(given, 'GithubWebhook').CLM_WEBHOOK_SECRET_ARN).toBe(WEBHOOK_SECRET);
  });

  it('runs a scheduled pass every N minutes with the input the dispatcher reads', () => {
    const schedules = template.findResources('AWS::Scheduler::Schedule');
    expect(Object.keys(schedules)).toHaveLength(1);
    const { ScheduleExpression, Target } = Object.values(schedules)[0].Properties;
    expect(ScheduleExpression).toBe('rate(5 minutes)');
    expect(Target.Arn).toEqual({ 'Fn::GetAtt': [fnId(template, 'DispatchFleet'), 'Arn'] });
    // the period lets the dispatcher spread the drift checks over its passes
    expect(PassRequest.parse(JSON.parse(Target.Input))).toEqual({ trigger: 'schedule', periodMinutes: 5 });
    const { workflowTemplate: slower } = synthClm({ dispatchIntervalMinutes: 15 });
    slower.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: 'rate(15 minutes)' });
  });

  it("reads the registry items of the table's stream when the registry is CLM's table", () => {
    statefulTemplate.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId(template, 'RegistryChanged') },
      StartingPosition: 'LATEST',
      BisectBatchOnFunctionError: true,
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ dynamodb: { Keys: { sk: { S: ['REGISTRY'] } } } }) }] },
      EventSourceArn: { 'Fn::ImportValue': Match.stringLikeRegexp('Table\\w*StreamArn') },
    });
    expect(envOf(template, 'Prepare').CLM_REGISTRY).toEqual({
      'Fn::Join': ['', ['dynamodb://', { 'Fn::ImportValue': expect.stringMatching(/RefTable/) }]],
    });
    const { workflowTemplate: http } = synthClm({ registryUri: 'https://registry.example.org' });
    http.resourceCountIs('AWS::Lambda::EventSourceMapping', 0);
  });

  it('runs a pass when a cluster-update execution ends and when the webhook accepts a push', () => {
    const rules = Object.values(template.findResources('AWS::Events::Rule')).map((r) => r.Properties);
    const ended = rules.find((r) => r.EventPattern.source[0] === 'aws.states')!;
    const pushed = rules.find((r) => r.EventPattern.source[0] === 'clm.fleet')!;
    const machine = logicalId(template, 'AWS::StepFunctions::StateMachine', 'ClusterUpdateStateMachine');
    expect(ended.EventPattern.detail).toEqual({
      stateMachineArn: [{ Ref: machine }],
      status: ['SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED'],
    });
    expect(pushed.EventPattern['detail-type']).toEqual(['PushAccepted']);
    for (const rule of [ended, pushed]) {
      expect(rule.Targets[0].Arn).toEqual({ 'Fn::GetAtt': [fnId(template, 'DispatchFleet'), 'Arn'] });
    }
    const values = {
      name: 'update-x',
      status: 'FAILED',
      executionArn: 'arn:x',
      repository: 'acme/c',
      ref: 'refs/heads/main',
    };
    expect(PassRequest.parse(transformed(ended.Targets[0], values))).toEqual({
      trigger: 'execution',
      execution: { name: 'update-x', status: 'FAILED', arn: 'arn:x' },
    });
    expect(PassRequest.parse(transformed(pushed.Targets[0], { ...values, commit: 'c0ffee' }))).toMatchObject({
      trigger: 'webhook',
      push: { repository: 'acme/c', ref: 'refs/heads/main', commit: 'c0ffee' },
    });
  });

  it('lets the dispatcher start and redrive cluster-update executions and put events; the webhook only put events', () => {
    const dispatcher = roleActions(template, 'DispatchFleet');
    expect(dispatcher).toEqual(
      expect.arrayContaining([
        'states:StartExecution',
        'states:ListExecutions',
        'states:DescribeExecution',
        'states:RedriveExecution',
        'events:PutEvents',
      ]),
    );
    const webhook = roleActions(template, 'GithubWebhook');
    expect(webhook).toContain('events:PutEvents');
    expect(webhook.filter((a) => a.startsWith('states:'))).toEqual([]);
    // The cluster-update tasks announce their own steps (UpdateStarted…): events, never executions.
    expect(roleActions(template, 'Prepare').filter((a) => /^(states|events):/.test(a))).toEqual(['events:PutEvents']);
    const env = envOf(template, 'DispatchFleet');
    expect(env.CLM_CLUSTER_UPDATE_ARN).toEqual({
      Ref: logicalId(template, 'AWS::StepFunctions::StateMachine', 'ClusterUpdateStateMachine'),
    });
    expect(JSON.parse(env.CLM_FLEET_SETTINGS)).toEqual({ maxConcurrent: '20', waveOrder: 'dev,prod' });
    expect(envOf(template, 'Prepare').CLM_FLEET_SETTINGS).toBeUndefined();
  });

  it('sends every alarm to one SNS topic, e-mails it when asked, and alarms on a halted rollout', () => {
    const topic = logicalId(template, 'AWS::SNS::Topic', 'MonitoringAlarms');
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((a) => a.Properties);
    expect(alarms.length).toBe(2 + 1 + 5); // two state machines, a halted rollout, the five triggered functions
    for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: topic }]);
    const halted = alarms.find((a) => JSON.stringify(a.Metrics ?? []).includes('"HaltedWaves"'));
    expect(halted).toMatchObject({ Threshold: 1, Metrics: [{ MetricStat: { Metric: { Namespace: 'CLM' } } }] });
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.org' });
  });

  it('draws a dashboard of executions by outcome, clusters behind target, nodes replaced and blocked drains', () => {
    const body = JSON.stringify(Object.values(template.findResources('AWS::CloudWatch::Dashboard'))[0].Properties);
    for (const metric of ['ExecutionsSucceeded', 'ExecutionsFailed', 'ExecutionsTimedOut', 'ExecutionsAborted']) {
      expect(body).toContain(`\\"AWS/States\\",\\"${metric}\\"`);
    }
    for (const metric of ['ClustersBehindTarget', 'NodesReplaced', 'DrainsBlocked', 'HaltedWaves']) {
      expect(body).toContain(`\\"CLM\\",\\"${metric}\\"`);
    }
  });

  it('picks up a new triggered catalogue entry (function, schedule, IAM from its ports) with no other edit', () => {
    // Arrange: a second scheduled task that reads the fleet and sends events
    const probe = defineTask({
      name: 'ProbeFleet',
      description: 'looks at the fleet',
      input: z.unknown(),
      output: z.unknown(),
      ports: { fleet: 'read', events: 'write' },
      triggers: [{ kind: 'schedule' }],
      step: async () => ({}),
    });

    // Act
    const { workflowTemplate: t } = synthClm({ tasks: [...TASK_CATALOGUE, probe] });

    // Assert
    const schedules = Object.values(t.findResources('AWS::Scheduler::Schedule')).map((s) => s.Properties.Target.Arn);
    expect(schedules).toContainEqual({ 'Fn::GetAtt': [fnId(t, 'ProbeFleet'), 'Arn'] });
    expect(roleActions(t, 'ProbeFleet')).toEqual(expect.arrayContaining(['events:PutEvents', 'dynamodb:Query']));
    expect(roleActions(t, 'ProbeFleet').filter((a) => a.startsWith('states:'))).toEqual([]);
    expect(JSON.stringify(t.findResources('AWS::StepFunctions::StateMachine'))).not.toContain('ProbeFleet');
  });
});

describe('the roll in the workflow stack, at fleet scale', () => {
  it('reserves concurrency for the roll step only when asked, and hands it the launch budget settings', () => {
    const { workflowTemplate: plain } = synthClm({});
    const props = (t: Template, task: string) => t.findResources('AWS::Lambda::Function')[fnId(t, task)].Properties;
    expect(props(plain, 'RollNodePool').ReservedConcurrentExecutions).toBeUndefined();
    const { workflowTemplate: reserved } = synthClm({
      rollReservedConcurrency: 600,
      fleetSettings: { launchesPerSecond: '1.8' },
    });
    expect(props(reserved, 'RollNodePool').ReservedConcurrentExecutions).toBe(600);
    expect(props(reserved, 'DeployStacks').ReservedConcurrentExecutions).toBeUndefined();
    expect(JSON.parse(envOf(reserved, 'RollNodePool').CLM_FLEET_SETTINGS)).toEqual({ launchesPerSecond: '1.8' });
    // The launch budget's items are in the progress table.
    expect(roleActions(reserved, 'RollNodePool')).toEqual(expect.arrayContaining(['dynamodb:PutItem']));
  });
});
