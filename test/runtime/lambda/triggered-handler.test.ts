// The Lambda side of triggered tasks: transports turn a Function URL request or a stream batch into the task's
// input (and the answer back), tasks publish their figures as embedded metrics, and the generated entry of a
// triggered task loads its transports; the webhook secret and the fleet settings come from the environment.
import * as z from 'zod';
import { marshall } from '@aws-sdk/util-dynamodb';
import { HttpRequest, HttpResponse } from '../../../lambdas/contracts/triggers';
import { lambdaHandler } from '../../../lambdas/runtime/lambda/lambda-handler';
import { handlerEntrySource } from '../../../lambdas/runtime/lambda/handler-entry';
import { lambdaEnvironment } from '../../../lambdas/runtime/lambda/environment';
import { fleetSettingsFrom } from '../../../lambdas/runtime/lambda/ports/fleet';
import { parseWebhookSecret, secretBackedVerifier } from '../../../lambdas/runtime/lambda/webhook-secret';
import { transport as httpTransport } from '../../../lambdas/runtime/lambda/transports/http';
import { transport as streamTransport } from '../../../lambdas/runtime/lambda/transports/registry-stream';
import type { Logger } from '../../../lambdas/shared/logger';
import { TASK_CATALOGUE } from '../../../lambdas/tasks/catalogue';
import { defineTask } from '../../../lambdas/tasks/define-task';

const silent = { appendKeys() {}, resetKeys() {}, info() {}, error() {} } as unknown as Logger;

/** An http task echoing what it received, with a figure. */
const echo = defineTask({
  name: 'Echo',
  description: 'echo',
  input: HttpRequest,
  output: HttpResponse,
  ports: {},
  triggers: [{ kind: 'http' }],
  metrics: (out) => [{ name: 'Echoed', value: Number(out.body.length) }],
  step: async (request) => ({ status: 202, body: { method: request.method, body: request.body, length: 5 } }),
});

const functionUrlEvent = (body: string, base64: boolean) => ({
  version: '2.0',
  rawPath: '/',
  headers: { 'x-github-event': 'push', 'content-type': 'application/json' },
  requestContext: { http: { method: 'POST', path: '/' } },
  body: base64 ? Buffer.from(body).toString('base64') : body,
  isBase64Encoded: base64,
});

describe('triggered tasks in Lambda', () => {
  it('answers a Function URL request through the http transport and writes the task figures as EMF', async () => {
    // Arrange
    const lines: string[] = [];
    const handler = lambdaHandler(echo, [], {
      logger: silent,
      env: {},
      transports: [async () => ({ transport: httpTransport })],
      writeMetric: (line) => lines.push(line),
    });

    // Act
    const answer = (await handler(functionUrlEvent('{"a":1}', true))) as { statusCode: number; body: string };

    // Assert
    expect(answer).toEqual({
      statusCode: 202,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'POST', body: '{"a":1}', length: 5 }),
    });
    expect(lines).toHaveLength(2);
    const [duration, figures] = lines.map((line) => JSON.parse(line));
    // Powertools Metrics' EMF: the `service` dimension the dashboard reads, and the call's duration per task.
    expect(figures._aws.CloudWatchMetrics).toEqual([
      { Namespace: 'CLM', Dimensions: [['service']], Metrics: [{ Name: 'Echoed', Unit: 'Count' }] },
    ]);
    expect(figures).toMatchObject({ Echoed: 5, task: 'Echo', service: 'clm' });
    expect(duration._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'CLM',
        Dimensions: [['service', 'task']],
        Metrics: [{ Name: 'TaskDuration', Unit: 'Milliseconds' }],
      },
    ]);
    expect(duration).toMatchObject({ service: 'clm', task: 'Echo', TaskDuration: expect.any(Number) });
  });

  it('passes an event no transport accepts to the task as it is (schedules and rules send its shape)', async () => {
    const handler = lambdaHandler(echo, [], {
      logger: silent,
      env: {},
      transports: [async () => ({ transport: httpTransport })],
      writeMetric: () => undefined,
    });
    expect(await handler({ method: 'GET', path: '/', headers: {}, body: '' })).toMatchObject({ status: 202 });
  });

  it('turns a stream batch into the registry changes, dropping the other items of the table', () => {
    // Arrange
    const doc = { id: 'aws:123456789012:eu-central-1:a', local_id: 'a' };
    const record = (sk: string) => ({
      eventName: 'INSERT',
      dynamodb: {
        Keys: marshall({ pk: `CLUSTER#${doc.id}`, sk }),
        NewImage: marshall({ pk: `CLUSTER#${doc.id}`, sk, ...doc, updated_at: 1 }),
      },
    });
    const event = { Records: [record('REGISTRY'), record('LEASE')] };

    // Act
    const input = streamTransport.input(event);

    // Assert
    expect(streamTransport.accepts(event)).toBe(true);
    expect(streamTransport.accepts({ trigger: 'schedule' })).toBe(false);
    expect(input).toEqual({
      trigger: 'registry',
      changes: [{ eventName: 'INSERT', clusterId: doc.id, newDocument: doc }],
    });
  });

  it("generates entries that load a triggered task's transports, and none for a state's task", () => {
    const paths = { lambdasDir: '/repo/lambdas', entryDir: '/repo/.build/handlers' };
    const entry = (name: string) =>
      handlerEntrySource(
        TASK_CATALOGUE.find((t) => t.name === name)!,
        paths,
      );
    expect(entry('GithubWebhook')).toContain(
      'transports: [\n    () => import("../../lambdas/runtime/lambda/transports/http"),',
    );
    expect(entry('RegistryChanged')).toContain('transports/registry-stream');
    expect(entry('DispatchFleet')).not.toContain('transports');
    expect(entry('Prepare')).toMatch(/\n\]\);\n$/);
  });
});

describe('the webhook secret', () => {
  it('is the plain secret, or a rotation pair; errors never quote it', () => {
    expect(parseWebhookSecret(' s3cret \n', 'arn:s')).toEqual(['s3cret']);
    expect(parseWebhookSecret('{"secret": "new", "previous": "old"}', 'arn:s')).toEqual(['new', 'old']);
    expect(() => parseWebhookSecret('{"secret": "new"', 'arn:s')).toThrow(/^secret arn:s starts like JSON/);
    expect(() => parseWebhookSecret('{"secret": "", "previous": "hunter2"}', 'arn:s')).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
    expect(() => parseWebhookSecret('  ', 'arn:s')).toThrow(/is empty/);
  });

  it('is read on first use, again after its time to live, and a failed read is not kept', async () => {
    // Arrange
    let now = 0;
    const answers = [new Error('throttled'), 'one', 'two'];
    const reads: string[] = [];
    const verifier = secretBackedVerifier({
      secretId: 'arn:s',
      now: () => now,
      ttlMs: 1000,
      reader: async () => async (id) => {
        reads.push(id);
        const next = answers.shift()!;
        if (next instanceof Error) throw next;
        return next;
      },
      build: (secrets) => ({
        verify: async (_body, signature) => secrets.github.includes(signature),
        verifyGitlab: async () => false,
        verifyBitbucket: async () => false,
      }),
    });

    // Act
    const first = await verifier.verify('b', 'one').catch((e: Error) => e.message);
    const second = await verifier.verify('b', 'one');
    const cached = await verifier.verify('b', 'two');
    now = 1000;
    const reread = await verifier.verify('b', 'two');

    // Assert
    expect([first, second, cached, reread]).toEqual(['throttled', true, false, true]);
    expect(reads).toHaveLength(3);
  });
});

describe('fleet settings from the environment', () => {
  it('reads CLM_FLEET_SETTINGS as JSON over the defaults, and names the variable when it is not', () => {
    const env = (value: string) => lambdaEnvironment({ CLM_FLEET_SETTINGS: value });
    expect(fleetSettingsFrom(env('')).maxConcurrent).toBe(10);
    expect(fleetSettingsFrom(env('{"maxConcurrent": "25", "waveOrder": "dev,prod"}'))).toMatchObject({
      maxConcurrent: 25,
      waveOrder: ['dev', 'prod'],
    });
    expect(() => fleetSettingsFrom(env('maxConcurrent=3'))).toThrow(/CLM_FLEET_SETTINGS is not JSON/);
    expect(() => fleetSettingsFrom(env('{"maxConcurrent": 0}'))).toThrow(/maxConcurrent/);
    expect(z.string().parse(env('{}').optional('CLM_FLEET_SETTINGS'))).toBe('{}');
  });
});
