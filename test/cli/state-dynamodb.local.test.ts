// `--state dynamodb://TABLE` against DynamoDB Local: the CLI reads and writes the deployed system's progress table —
// controls, leases, status — so an operator on a laptop sees and steers what the service does.
import { resolve } from 'node:path';
import { main } from '../../lambdas/cli/main';
import type { CliIo } from '../../lambdas/cli/io';
import { DynamoDbProgressStore } from '../../lambdas/adapters/progress/dynamodb-progress-store';
import { startDynamoDbLocal, type DynamoDbLocal } from '../support/dynamodb-local';

const ROOT = resolve(__dirname, '../..');
const CLUSTER = 'aws:123456789012:eu-central-1:kube-test';
const TABLE = 'clm-progress';
const STATE = `dynamodb://${TABLE}`;
let local: DynamoDbLocal;
const saved = { ...process.env };

beforeAll(async () => {
  local = await startDynamoDbLocal();
  await local.createTable(TABLE);
  Object.assign(process.env, {
    CLM_AWS_ENDPOINT: local.endpoint,
    AWS_REGION: 'local',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
}, 60_000);

afterAll(async () => {
  process.env = saved;
  await local?.stop();
});

async function clm(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io: CliIo & { out: string; err: string } = {
    out: '',
    err: '',
    cwd: ROOT,
    stdout: (text) => void (io.out += text),
    stderr: (text) => void (io.err += text),
  };
  const code = await main(args, io);
  return { code, out: io.out, err: io.err };
}

describe('clm with --state dynamodb://TABLE', () => {
  it("pauses a deployed cluster, shows the service's lease and breaks it with --force", async () => {
    const table = new DynamoDbProgressStore(local.client, TABLE);
    await table.acquireLease(
      CLUSTER,
      'arn:aws:states:eu-central-1:1:execution:ClusterUpdate:update-1',
      60_000,
      Date.now(),
    );

    const paused = await clm(
      'pause',
      CLUSTER,
      '--registry',
      'examples/clusters.yaml',
      '--state',
      STATE,
      '--reason',
      'incident 42',
    );
    expect(paused).toMatchObject({ code: 0, err: '' });
    expect(await table.getControls(CLUSTER)).toMatchObject({ paused: true, reason: 'incident 42' });

    const status = await clm('status', '--registry', 'examples/clusters.yaml', '--state', STATE, '--cluster', CLUSTER);
    expect(status.code).toBe(0);
    expect(status.out).toContain('updates paused by ');
    expect(status.out).toContain('lease: arn:aws:states:eu-central-1:1:execution:ClusterUpdate:update-1');

    expect((await clm('unlock', CLUSTER, '--registry', 'examples/clusters.yaml', '--state', STATE)).code).toBe(2);
    expect(
      (await clm('unlock', CLUSTER, '--registry', 'examples/clusters.yaml', '--state', STATE, '--force')).code,
    ).toBe(0);
    expect(await table.getLease(CLUSTER)).toBeUndefined();
    await clm('resume', CLUSTER, '--registry', 'examples/clusters.yaml', '--state', STATE);
    expect(await table.getControls(CLUSTER)).toEqual({});
  });
});
