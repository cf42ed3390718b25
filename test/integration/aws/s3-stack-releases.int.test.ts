// `clm stack release --to s3://…` and a released pin read back, through the S3 adapter against moto_server: the
// conditional put (If-None-Match: *) keeps a released object as it is, an identical re-release writes nothing,
// other content is refused, and the tarball read back verifies against its digest. Needs only moto:
//   test/integration/aws/moto.sh start DIR && source DIR/env && npx jest -c jest.integration.config.cjs <this file>
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CreateBucketCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { createAwsClients, type AwsClients } from '../../../lambdas/adapters/aws/aws-clients';
import { S3ArtifactStore } from '../../../lambdas/adapters/aws/s3-artifact-store';
import { main } from '../../../lambdas/cli/main';
import { loadClusterStack, releasesIn } from '../../../lambdas/tasks/cluster-stacks/stack-releases';
import { captureIo } from '../../support/cli-io';
import { testCluster } from '../../support/test-cluster';
import { MOTO_CREDENTIALS, REGION, motoEndpoint } from '../support/environment';

const ROOT = resolve(__dirname, '../../..');
const BUCKET = `clm-int-releases-${process.pid}`;
const endpoint = motoEndpoint();
let clients: AwsClients;
let work: string;
const saved = { ...process.env };

beforeAll(async () => {
  clients = createAwsClients({ region: REGION, endpoint, credentials: MOTO_CREDENTIALS });
  await clients.s3.send(
    new CreateBucketCommand({ Bucket: BUCKET, CreateBucketConfiguration: { LocationConstraint: REGION } }),
  );
  // The CLI builds its own S3 client: from the environment, as an operator's shell would give it.
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: MOTO_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: MOTO_CREDENTIALS.secretAccessKey,
    AWS_REGION: REGION,
  });
  work = mkdtempSync(join(tmpdir(), 'clm-int-release-'));
  cpSync(join(ROOT, 'examples/cluster-stacks/v2'), work, { recursive: true, dereference: true });
});

afterAll(() => {
  process.env = saved;
  rmSync(work, { recursive: true, force: true });
  clients?.s3.destroy();
});

async function release(...args: string[]) {
  const io = captureIo(work);
  const code = await main(['stack', 'release', '--stack', 'aws/default/1-30', ...args], io);
  return { code, out: io.out, err: io.err };
}

async function object(key: string): Promise<Buffer> {
  const out = await clients.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

describe('released cluster stacks in S3 (moto)', () => {
  it('putOnce writes a key once and leaves it as it is', async () => {
    const store = new S3ArtifactStore(clients.s3, { bucket: BUCKET, region: REGION, endpoint, prefix: 'once/' });
    expect(await store.putOnce('a.bin', Uint8Array.from([1, 2, 255]))).toBe(true);
    expect(await store.putOnce('a.bin', Uint8Array.from([9]))).toBe(false);
    expect([...(await store.getBytes('a.bin'))!]).toEqual([1, 2, 255]);
    expect(await store.getBytes('missing.bin')).toBeUndefined();
    expect(store.locationOf('a.bin')).toBe(`s3://${BUCKET}/once/a.bin`);
  });

  it('releases into the artefact bucket, re-releases as a no-op, refuses other content, and a pin reads it back', async () => {
    const first = await release('--bucket', BUCKET);
    expect(first.code).toBe(0);
    const key = 'stack-releases/aws/default/1-30/v2.tar.gz';
    const digest = (await object('stack-releases/aws/default/1-30/v2.sha256')).toString('utf8').trim();
    expect(first.out).toContain(`released: s3://${BUCKET}/${key} ${digest}`);
    const bytes = await object(key);

    const again = await release('--to', `s3://${BUCKET}/stack-releases`);
    expect(again.code).toBe(0);
    expect(again.out).toContain('already released, unchanged (nothing written)');

    const configmap = join(work, 'providers/aws/default/1-30/cluster-addon/20-web/configmap.yaml');
    writeFileSync(configmap, readFileSync(configmap, 'utf8').replace('Hi from', 'Hey from'));
    const refused = await release('--bucket', BUCKET);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`aws/default/1-30@v2 was released as ${digest}; this content is sha256:`);
    expect((await object(key)).equals(bytes)).toBe(true);

    // What the tasks do with `cluster_stack_version: v2@<digest>`: read the artefact bucket's stack-releases/.
    const artifacts = new S3ArtifactStore(clients.s3, { bucket: BUCKET, region: REGION, endpoint });
    const cluster = testCluster({
      configItems: { cluster_stack: 'aws/default/1-30', cluster_stack_version: `v2@${digest}` },
    });
    const snapshot = { sourceName: 'main', version: 'sha-1', files: new Map<string, string>() };
    const stack = await loadClusterStack(cluster, [snapshot], releasesIn(artifacts));
    expect(stack?.release).toEqual({ digest, location: `s3://${BUCKET}/${key}` });
    expect(stack?.tree.get('cluster/manifests/20-web/configmap.yaml')).toContain('Hi from');
  });
});
