// RenderClusterResources uploads every pool's files bundle as CLM does (§4.5, §6.4) before any pool stack names it: a
// tar.gz in CLM's bucket of the cluster's account (created there), its `encrypted: true` files KMS-encrypted with the
// main stack's key as `<path>.enc`, at exactly the path the pool's user data names.
import { gunzipSync } from 'node:zlib';
import { HandlebarsTemplateEngine } from '../../lambdas/adapters/templating/handlebars-template-engine';
import { StaticValuesProvider } from '../../lambdas/adapters/values/static-values-provider';
import { readUstar } from '../../lambdas/core/archive/ustar';
import { ResourcesArtifact } from '../../lambdas/contracts/artifacts';
import type { ClusterPorts, Ports } from '../../lambdas/ports/ports';
import { getArtifact } from '../../lambdas/tasks/step/artifacts';
import { updateRun } from '../../lambdas/tasks/step/run-record';
import { prepare } from '../../lambdas/tasks/prepare';
import { renderClusterResources } from '../../lambdas/tasks/render-cluster-resources';
import { renderConfig } from '../../lambdas/tasks/render-config';
import { ConfigError } from '../../lambdas/shared/errors';
import { fakeEnv, testCluster, testPool } from '../support/fakes';

const BUCKET = 'cluster-lifecycle-manager-123456789012-eu-central-1';
const KEY_ARN = 'arn:aws:kms:eu-central-1:123456789012:key/1111-worker';
const SECRET = 'node-private-key';

const CONFIG = {
  'cluster/cluster.yaml': 'Resources:\n  Topic: {Type: AWS::SNS::Topic}\n',
  'cluster/node-pools/worker-default/files.yaml': [
    'files:',
    '  - {path: /etc/kubernetes/cluster, data: "{{base64 Cluster.LocalID}}", permissions: 0644}',
    `  - {path: /etc/kubernetes/worker-key.pem, data: "{{base64 "${SECRET}"}}", permissions: 0400, encrypted: true}`,
    '',
  ].join('\n'),
  'cluster/node-pools/worker-default/userdata.yaml': '#cloud-config\nS3_CERTS_BUCKET={{Values.S3GeneratedFilesPath}}\n',
  'cluster/node-pools/worker-default/stack.yaml': [
    'Resources:',
    '  LaunchTemplate:',
    '    Type: AWS::EC2::LaunchTemplate',
    '    Properties: {LaunchTemplateData: {UserData: "{{Values.UserData}}"}}',
    '',
  ].join('\n'),
};

async function renderWith(items: Record<string, string>, outputs: Record<string, string>) {
  const cluster = testCluster({ configItems: items, nodePools: [testPool({ name: 'workers' })] });
  const env = fakeEnv({ clusters: [cluster] });
  Object.assign(env.source.files, CONFIG);
  const clusterPorts = { ...env.ports.forCluster(cluster), values: new StaticValuesProvider() } as ClusterPorts;
  const ports: Ports = { ...env.ports, templates: new HandlebarsTemplateEngine(), forCluster: () => clusterPorts };
  const run = await prepare(
    { clusterId: cluster.id, action: 'provision', options: { applyOnly: false }, trigger: 'test' },
    'exec-1',
    ports,
  );
  const ref = { clusterId: cluster.id, targetVersion: run.targetVersion, holder: 'exec-1' };
  await renderConfig(ref, ports);
  // What DeployStacks records once the main stack is there: its outputs.
  await updateRun(ports, ref, (r) => ({ ...r, stackOutputs: outputs }));
  return { env, render: () => renderClusterResources(ref, { applyOnly: false }, ports) };
}

function userDataOf(template: string): string {
  const encoded = /UserData: "([^"]+)"/.exec(template)![1]!;
  return gunzipSync(Buffer.from(encoded, 'base64')).toString('utf8');
}

describe('RenderClusterResources: the files bundles', () => {
  it("uploads a tar.gz with the secret KMS-encrypted into CLM's bucket of the cluster account, where the user data points", async () => {
    const { env, render } = await renderWith({}, { WorkerFilesEncryptionKey: KEY_ARN });
    env.nodeFiles.addKey(KEY_ARN);

    const out = await render();

    const artifact = await getArtifact(env.artifacts, out.artifactKey, ResourcesArtifact);
    expect(artifact.filesKeys).toEqual([
      expect.stringMatching(new RegExp(`^s3://${BUCKET}/kube-1/worker/[0-9a-f]{128}\\.userdata$`)),
    ]);
    const [path] = artifact.filesKeys;
    expect(env.nodeFiles.calls).toEqual([`encrypt ${KEY_ARN}`, `put ${path}`, `createBucket ${BUCKET}`]);
    // the pool's user data names exactly the uploaded object
    expect(userDataOf(artifact.poolStacks[0]!.template)).toBe(`#cloud-config\nS3_CERTS_BUCKET=${path}\n`);
    const object = env.nodeFiles.objects.get(path!.replace('s3://', ''))!;
    const entries = readUstar(gunzipSync(object));
    expect(entries.map((e) => [e.path, e.mode, e.type])).toEqual([
      ['/etc/kubernetes/cluster', 0o644, '0'],
      ['/etc/kubernetes/worker-key.pem.enc', 0o400, '0'],
    ]);
    expect(Buffer.from(entries[0]!.content).toString()).toBe('kube-1');
    expect(Buffer.from(object).includes(Buffer.from(SECRET))).toBe(false);
    expect(Buffer.from(gunzipSync(object)).includes(Buffer.from(SECRET))).toBe(false);
    expect(env.nodeFiles.decrypt(entries[1]!.content)).toEqual({ keyId: KEY_ARN, plaintext: Buffer.from(SECRET) });
    // nothing of it in CLM's own artefact store
    expect(
      [...env.artifacts.objects.keys(), ...env.artifacts.bytes.keys()].filter((k) => k.includes('.userdata')),
    ).toEqual([]);
  });

  it('uploads into the bucket config item node_files_bucket names, which must exist (never created)', async () => {
    const { env, render } = await renderWith(
      { node_files_bucket: 'acme-node-files' },
      { WorkerFilesEncryptionKey: KEY_ARN },
    );
    env.nodeFiles.addKey(KEY_ARN);
    await expect(render()).rejects.toThrow('NoSuchBucket: acme-node-files');

    env.nodeFiles.addBucket('acme-node-files');
    const out = await render();
    const artifact = await getArtifact(env.artifacts, out.artifactKey, ResourcesArtifact);
    expect(artifact.filesKeys).toEqual([expect.stringMatching(/^s3:\/\/acme-node-files\/kube-1\/worker\//)]);
    expect(env.nodeFiles.calls.filter((c) => c.startsWith('createBucket'))).toEqual([]);
  });

  it('refuses to upload a secret when the main stack has no key for it, naming the output', async () => {
    const { env, render } = await renderWith({}, {});

    const failure = render();

    await expect(failure).rejects.toThrow(ConfigError);
    await expect(failure).rejects.toThrow(
      /\/etc\/kubernetes\/worker-key\.pem is encrypted: true, but there is no KMS key to encrypt it with \(WorkerFilesEncryptionKey is unknown/,
    );
    expect(env.nodeFiles.objects.size).toBe(0);
  });
});
