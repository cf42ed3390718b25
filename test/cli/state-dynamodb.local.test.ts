// `--state dynamodb://TABLE` against DynamoDB Local: the CLI reads and writes the deployed system's progress table —
// controls, leases, status — so an operator on a laptop sees and steers what the service does.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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
  return clmIn(ROOT, ...args);
}

async function clmIn(cwd: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io: CliIo & { out: string; err: string } = {
    out: '',
    err: '',
    cwd,
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

  describe('one writer, CLI and service', () => {
    const EXECUTION = 'arn:aws:states:eu-central-1:123456789012:execution:ClusterUpdate:kube-test-2';
    const provision = ['provision', '--registry', 'examples/clusters.yaml', '--directory', 'examples/config'];
    const kubeTest = ['--cluster', CLUSTER, '--bucket', 'clm-artifacts'];
    afterEach(() => {
      delete process.env.CLM_STATE;
    });

    it('with CLM_STATE naming the deployed table, a run is refused while a deployed execution holds the lease', async () => {
      // Arrange
      const table = new DynamoDbProgressStore(local.client, TABLE);
      await table.acquireLease(CLUSTER, EXECUTION, 10 * 60_000, Date.now());
      process.env.CLM_STATE = STATE;

      // Act
      const run = await clm(...provision, ...kubeTest);

      // Assert
      expect(run.code).toBe(3);
      expect(run.out).toContain(`is being updated by ${EXECUTION}`);
      expect((await table.getLease(CLUSTER))?.holder).toBe(EXECUTION);
      await table.releaseLease(CLUSTER, EXECUTION);
    });

    it('against real AWS, a lease in a directory is refused unless --local-lease says so, loudly', async () => {
      // Act
      const refused = await clm(...provision, ...kubeTest);
      const dir = mkdtempSync(join(tmpdir(), 'clm-local-lease-'));
      const warned = await clm(...provision, '--state', dir, '--cluster', 'aws:1:nowhere', '--local-lease');
      rmSync(dir, { recursive: true, force: true });

      // Assert
      expect(refused.code).toBe(2);
      expect(refused.err).toContain('must take its leases where a deployed CLM sees them');
      expect(refused.err).toContain('CLM_STATE=dynamodb://TABLE');
      expect(warned.err).toContain('WARNING: --local-lease');
    });

    it('--simulate keeps its world in a directory whatever CLM_STATE says', async () => {
      // Arrange
      const cwd = mkdtempSync(join(tmpdir(), 'clm-simulate-'));
      process.env.CLM_STATE = STATE;

      // Act
      const run = await clmIn(
        cwd,
        ...['provision', '--simulate', '--registry', join(ROOT, 'examples/clusters.yaml')],
        ...['--directory', join(ROOT, 'examples/config'), '--cluster', CLUSTER],
      );

      // Assert
      expect(run.code).toBe(0);
      expect(existsSync(join(cwd, '.clm-state', 'world.json'))).toBe(true);
      rmSync(cwd, { recursive: true, force: true });
    });
  });
});
