import { Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Table, AttributeType } from 'aws-cdk-lib/aws-dynamodb';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TaskFunction, TASK_BUNDLING } from '../../infra/constructs/task-function';
import { writeHandlerEntry } from '../../infra/handler-entries';
import { task as prepare } from '../../lambdas/tasks/prepare';
import { REPO_ROOT, testApp } from './synth';

function build(extra: Partial<ConstructorParameters<typeof TaskFunction>[2]> = {}) {
  const stack = new Stack(testApp(), 'Test');
  const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
  const artifactBucket = new Bucket(stack, 'Bucket');
  const fn = new TaskFunction(stack, 'Task', {
    entry: writeHandlerEntry(prepare, REPO_ROOT),
    projectRoot: REPO_ROOT,
    table,
    artifactBucket,
    ...extra,
  });
  return { fn, template: Template.fromStack(stack) };
}

describe('TaskFunction', () => {
  it('applies the house defaults', () => {
    const { template } = build();
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      Timeout: 60,
      Handler: 'index.handler',
      TracingConfig: { Mode: 'Active' },
      LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: Match.stringLikeRegexp('^TaskLogs') } },
      Environment: {
        Variables: {
          POWERTOOLS_SERVICE_NAME: 'clm',
          CLM_TABLE_NAME: { Ref: Match.stringLikeRegexp('^Table') },
          CLM_ARTIFACT_BUCKET: { Ref: Match.stringLikeRegexp('^Bucket') },
          NODE_OPTIONS: '--enable-source-maps',
        },
      },
    });
    template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
  });

  it('writes logs only to its own group and traces to X-Ray, nothing else', () => {
    const { template } = build();
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          {
            Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
            Effect: 'Allow',
            Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('^TaskLogs'), 'Arn'] },
          },
          { Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], Effect: 'Allow', Resource: '*' },
        ],
      },
    });
    template.hasResourceProperties('AWS::IAM::Role', { ManagedPolicyArns: Match.absent() });
  });

  it('takes memory, timeout, retention, service name and extra environment from its props', () => {
    const { template } = build({
      memorySize: 1024,
      timeout: Duration.seconds(120),
      logRetention: RetentionDays.ONE_WEEK,
      serviceName: 'clm-test',
      environment: { EXTRA: '1' },
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      MemorySize: 1024,
      Timeout: 120,
      Environment: { Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: 'clm-test', EXTRA: '1' }) },
    });
    template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 7 });
  });

  it('bundles every dependency but the runtime AWS SDK into one minified CommonJS file for node22', () => {
    expect(TASK_BUNDLING).toEqual(
      expect.objectContaining({
        format: 'cjs',
        minify: true,
        target: 'node22',
        external: ['@aws-sdk/*', '@smithy/*'],
        sourcemap: true,
      }),
    );
  });

  it('aliases the stubs (Lambda invoke, source-map, to-buffer, pako, semver) and the X-Ray SDK smithy dependency to files that exist, relative to the project root', () => {
    expect(
      Object.entries(TASK_BUNDLING.alias).map(([name, path]) => [
        name,
        path.startsWith('./'),
        existsSync(join(REPO_ROOT, path)),
      ]),
    ).toEqual([
      ['@aws-sdk/client-lambda', true, true],
      ['@aws-sdk/credential-providers', true, true],
      ['source-map', true, true],
      ['to-buffer', true, true],
      ['pako', true, true],
      ['semver', true, true],
      ['@smithy/service-error-classification', true, true],
    ]);
  });
});
