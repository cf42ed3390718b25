// The real record-problem Lambda entry (generated from the catalogue as synth does), wired from the environment as in Lambda: progress and a dynamodb://
// registry in DynamoDB Local, tokens from a (mocked) Secrets Manager secret. Checks the whole path from payload to
// stored problem, that the secret is read once per container, and that no token reaches a log line or an error.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDbProgressStore } from '../../../lambdas/adapters/progress/dynamodb-progress-store';
import { DynamoDbRegistry } from '../../../lambdas/adapters/registry/dynamodb-registry';
import { join } from 'node:path';
import { writeHandlerEntry } from '../../../infra/handler-entries';
import { lambdaHandler } from '../../../lambdas/runtime/lambda/lambda-handler';
import { createLogger } from '../../../lambdas/shared/logger';
import { task as recordProblemTask } from '../../../lambdas/tasks/record-problem';
import { wireCluster } from '../../adapters/registry/fixtures';
import { startDynamoDbLocal } from '../../support/dynamodb-local';
import type { DynamoDbLocal } from '../../support/dynamodb-local';

const TABLE = 'clm-progress';
const SECRET_ARN = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:clm-tokens-AbCdEf';
const CLUSTER_ID = 'aws:123456789012:eu-central-1:kube-1';
const TOKENS = { registryToken: 'tok-registry-6f1d2c', gitToken: 'tok-git-9a8b7c', clusterToken: 'tok-cluster-1e2f3a' };
const sm = mockClient(SecretsManagerClient);
let local: DynamoDbLocal;
const saved = { ...process.env };

function lambdaEnv(): Record<string, string> {
  return {
    // DynamoDB Local keeps one database per region and access key: the ones of its client (test/support/dynamodb-local.ts).
    AWS_REGION: 'local',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    CLM_AWS_ENDPOINT: local.endpoint,
    CLM_TABLE_NAME: TABLE,
    CLM_ARTIFACT_BUCKET: 'clm-artifacts',
    CLM_REGISTRY: `dynamodb://${TABLE}`,
    CLM_SECRET_ARN: SECRET_ARN,
    POWERTOOLS_SERVICE_NAME: 'clm',
    POWERTOOLS_LOG_LEVEL: 'INFO',
  };
}

const payload = (executionId: string) => ({
  state: {
    clusterId: CLUSTER_ID,
    action: 'provision',
    options: { applyOnly: false },
    trigger: 'test',
    run: { decision: 'UPDATE', targetVersion: 'cfg#1', previousVersion: '', holder: executionId, message: 'update' },
    error: {
      Error: 'StackFailedError',
      Cause: 'Stack kube-1 is UPDATE_ROLLBACK_COMPLETE: Resource creation cancelled',
    },
  },
  executionId,
  stateName: 'RecordProblem',
  params: {},
});

/** Everything written to stdout and stderr while `act` runs (Powertools logs there, errors to stderr). */
async function capturingOutput<T>(act: () => Promise<T>): Promise<{ result: T | Error; output: string }> {
  const chunks: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  };
  const spies = [
    jest.spyOn(process.stdout, 'write').mockImplementation(capture),
    jest.spyOn(process.stderr, 'write').mockImplementation(capture),
  ];
  try {
    const result = await act().catch((error: unknown) => error as Error);
    return { result, output: chunks.join('') };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

beforeAll(async () => {
  local = await startDynamoDbLocal();
  await local.createTable(TABLE);
  await new DynamoDbRegistry({ tableName: TABLE, client: local.client }).putCluster(wireCluster('kube-1'));
}, 60_000);

afterAll(async () => {
  process.env = saved;
  await local?.stop();
});

beforeEach(() => {
  sm.reset();
  sm.on(GetSecretValueCommand, { SecretId: SECRET_ARN }).resolves({ SecretString: JSON.stringify(TOKENS) });
});

describe('the RecordProblem Lambda entry', () => {
  it('records the problem in the registry and the progress store, reading the token secret once, logging no token', async () => {
    // Arrange
    Object.assign(process.env, lambdaEnv());
    const { handler } = await import(writeHandlerEntry(recordProblemTask, join(__dirname, '..', '..', '..')));
    const progress = new DynamoDbProgressStore(local.client, TABLE);
    await progress.acquireLease(CLUSTER_ID, 'exec-1', 60_000, Date.now());

    // Act
    const { result, output } = await capturingOutput(async () => [
      await handler(payload('exec-1')),
      await handler(payload('exec-2')),
    ]);

    // Assert
    expect(result).toEqual([
      { problem: expect.stringContaining('StackFailedError') },
      { problem: expect.stringContaining('StackFailedError') },
    ]);
    const [cluster] = await new DynamoDbRegistry({ tableName: TABLE, client: local.client }).listClusters();
    const title = 'StackFailedError: Stack kube-1 is UPDATE_ROLLBACK_COMPLETE: Resource creation cancelled';
    expect(cluster.status.problems.map((p) => p.title)).toContain(title);
    expect((await progress.getStatus(CLUSTER_ID))?.problems.map((p) => p.title)).toContain(title);
    expect(await progress.getLease(CLUSTER_ID)).toBeUndefined();
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    const lines = output
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          message: 'Running RecordProblem',
          clusterId: CLUSTER_ID,
          executionId: 'exec-1',
          stateName: 'RecordProblem',
        }),
      ]),
    );
    for (const token of Object.values(TOKENS)) expect(output).not.toContain(token);
  });

  it('fails with a ConfigError that quotes neither the secret nor its tokens when the secret is not JSON', async () => {
    // Arrange
    sm.on(GetSecretValueCommand).resolves({ SecretString: `registryToken=${TOKENS.registryToken}` });
    const handler = lambdaHandler(
      recordProblemTask,
      [
        () => import('../../../lambdas/runtime/lambda/ports/stores'),
        () => import('../../../lambdas/runtime/lambda/ports/registry'),
      ],
      { env: lambdaEnv(), logger: createLogger() },
    );

    // Act
    const { result, output } = await capturingOutput(() => handler(payload('exec-3')));

    // Assert
    expect(result).toBeInstanceOf(Error);
    expect({ name: (result as Error).name, message: (result as Error).message }).toEqual({
      name: 'ConfigError',
      message: expect.stringMatching(/^secret arn:aws:secretsmanager:.*clm-tokens-AbCdEf is not JSON/),
    });
    expect(output).toContain('RecordProblem failed');
    expect(output + (result as Error).message + String((result as Error).stack)).not.toContain(TOKENS.registryToken);
  });
});
