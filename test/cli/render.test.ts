import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../lambdas/cli/main';
import type { CliIo } from '../../lambdas/cli/io';

const ROOT = resolve(__dirname, '../..');

function capture(cwd = ROOT): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    cwd,
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
  };
  return io;
}

const EXAMPLES = ['--registry', 'examples/clusters.yaml', '--directory', 'examples/config'];

describe('clm render', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'clm-render-'));
  });
  afterEach(() => {
    rmSync(tmp, { recursive: true, force: true });
  });

  it('prints one JSON document with every example cluster (exit 0)', async () => {
    // Arrange
    const io = capture();

    // Act
    const code = await main(['render', ...EXAMPLES, '--output', 'json'], io);

    // Assert
    expect(io.err).toBe('');
    expect(code).toBe(0);
    const doc = JSON.parse(io.out);
    expect(Object.keys(doc)).toEqual(['clusters']);
    expect(doc.clusters.map((c: any) => c.id)).toEqual([
      'aws:123456789012:eu-central-1:kube-test',
      'aws:123456789012:eu-central-1:kube-staging',
      'aws:210987654321:eu-west-1:kube-prod',
    ]);
    for (const cluster of doc.clusters) {
      expect(cluster).toEqual({
        id: expect.any(String),
        version: expect.stringMatching(/^.+#[A-Za-z0-9_-]+$/),
        configItems: expect.any(Object),
        nodePools: expect.arrayContaining([{ name: 'master-default', configItems: expect.any(Object) }]),
        stacks: expect.any(Array),
        manifests: expect.any(Array),
        // every pool's files bundle: in CLM's bucket of the cluster's account and region, with its key
        filesBundles: expect.arrayContaining([
          {
            owner: 'master-default',
            s3Path: expect.stringMatching(
              new RegExp(`^s3://cluster-lifecycle-manager-${cluster.id.split(':')[1]}-${cluster.id.split(':')[2]}/`),
            ),
            kmsKey: 'MasterFilesEncryptionKey',
          },
        ]),
        deletions: { preApply: expect.any(Array), postApply: expect.any(Array) },
        cfDeletions: { preApply: [], postApply: [{ stackName: expect.stringMatching(/-legacy-logging$/) }] },
        errors: [],
      });
      for (const stack of cluster.stacks) {
        expect(['cluster', 'node-pool', 'cf-manifest']).toContain(stack.kind);
        expect(stack.template.Resources).toEqual(expect.any(Object));
      }
      for (const manifest of cluster.manifests) {
        expect(manifest).toEqual({
          source: 'main',
          component: expect.any(String),
          file: expect.any(String),
          objects: expect.any(Array),
        });
      }
    }
    const prod = doc.clusters[2];
    expect(prod.configItems.drain_grace_period).toBe('6h');
    expect(doc.clusters[1].configItems.drain_grace_period).toBe('30m');
  });

  it('prints a summary per cluster as text', async () => {
    const io = capture();
    const code = await main(['render', ...EXAMPLES, '--cluster', 'aws:123456789012:eu-central-1:kube-test'], io);
    expect(code).toBe(0);
    expect(io.out).toContain('aws:123456789012:eu-central-1:kube-test\n  version    ');
    expect(io.out).toContain('  stacks     4: kube-test, kube-test-alerts, nodepool-master-default-');
    expect(io.out).toContain('1 cluster rendered, 0 with errors');
    expect(io.out).not.toContain('kube-prod');
  });

  it('writes a readable tree with --out', async () => {
    const io = capture();
    const code = await main(['render', ...EXAMPLES, '--values', 'examples/values.yaml', '--out', tmp], io);
    expect(code).toBe(0);
    const dir = join(tmp, 'aws_123456789012_eu-central-1_kube-staging');
    expect(readFileSync(join(dir, 'stacks', 'kube-staging.yaml'), 'utf8')).toContain('RoleName: kube-staging-worker');
    expect(readFileSync(join(dir, 'manifests', 'main', '20-web', 'deployment.yaml'), 'utf8')).toContain(
      'kind: PodDisruptionBudget',
    );
    expect(readFileSync(join(dir, 'node-pools', 'stateful', 'config-items.yaml'), 'utf8')).toContain(
      'availability_zones: eu-central-1a,eu-central-1b',
    );
    expect(existsSync(join(dir, 'deletions.yaml'))).toBe(true);
    expect(existsSync(join(dir, 'config-items.yaml'))).toBe(true);
    expect(existsSync(join(dir, 'errors.txt'))).toBe(false);
  });

  it('exits 1 when a cluster fails, still rendering the others', async () => {
    // Arrange: a registry with one good and one cluster whose pool uses an unknown profile
    const registry = readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8').replace(
      'profile: worker-splitaz',
      'profile: worker-gpu',
    );
    writeFileSync(join(tmp, 'clusters.yaml'), registry);
    const io = capture();

    // Act
    const code = await main(
      [
        'render',
        '--registry',
        join(tmp, 'clusters.yaml'),
        '--directory',
        join(ROOT, 'examples/config'),
        '--output',
        'json',
      ],
      io,
    );

    // Assert
    expect(code).toBe(1);
    const doc = JSON.parse(io.out);
    expect(doc.clusters.map((c: any) => c.errors.length)).toEqual([0, 1, 0]);
    expect(doc.clusters[1].errors[0].message).toContain('node pool "stateful" uses profile "worker-gpu"');
    expect(doc.clusters[1].stacks.length).toBeGreaterThan(0);
  });

  it('hints at --values when a template needs a stack output that is not known offline', async () => {
    // Arrange
    const config = join(tmp, 'config');
    const { cpSync } = await import('node:fs');
    cpSync(join(ROOT, 'examples/config'), config, { recursive: true });
    writeFileSync(
      join(config, 'cluster/manifests/01-namespaces/role.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: role, namespace: web}\ndata: {role: "{{Values.ClusterStackOutputs.WorkerIAMRoleArn}}"}\n',
    );
    const io = capture();

    // Act
    const args = [
      'render',
      '--registry',
      'examples/clusters.yaml',
      '--directory',
      config,
      '--cluster',
      'aws:123456789012:eu-central-1:kube-test',
    ];
    const withoutValues = await main(args, io);
    const withValues = await main([...args, '--values', 'examples/values.yaml'], capture());

    // Assert
    expect(withoutValues).toBe(1);
    expect(io.out).toContain('"Values.ClusterStackOutputs.WorkerIAMRoleArn" is not defined');
    expect(io.out).toContain('pass them with --values FILE under ClusterStackOutputs');
    expect(withValues).toBe(0);
  });

  it.each([
    [
      '--directory with --config-source',
      [...EXAMPLES, '--config-source', 'x:dir:examples/config'],
      /--directory and --config-source cannot be used together/,
    ],
    ['no config source', ['--registry', 'examples/clusters.yaml'], /at least one --config-source/],
    ['an unknown cluster id', [...EXAMPLES, '--cluster', 'aws:123456789012:eu-central-1:kube-tset'], /kube-tset/],
    [
      'a missing config directory',
      ['--registry', 'examples/clusters.yaml', '--directory', 'examples/no-such-dir'],
      /examples\/no-such-dir .* is not a directory/,
    ],
    [
      'an unreadable registry',
      ['--registry', 'examples/no-such-file.yaml', '--directory', 'examples/config'],
      /cannot read the cluster registry file/,
    ],
    [
      'an invalid registry file',
      ['--registry', 'examples/values.yaml', '--directory', 'examples/config'],
      /examples\/values\.yaml/,
    ],
    ['a bad --output', [...EXAMPLES, '--output', 'xml'], /argument 'xml' is invalid/],
    ['an unknown flag', [...EXAMPLES, '--verbose'], /unknown option '--verbose'/],
    [
      'a missing --registry',
      ['--directory', 'examples/config'],
      /required option '-f, --registry <uri>' not specified/,
    ],
  ])('exits 2 for %s', async (_what, args, message) => {
    const io = capture();
    const code = await main(['render', ...args], io);
    expect(code).toBe(2);
    expect(io.err).toMatch(message);
    expect(io.out).toBe('');
  });

  it('explains its flags with examples on --help (exit 0)', async () => {
    const io = capture();
    const code = await main(['render', '--help'], io);
    expect(code).toBe(0);
    for (const flag of ['--registry', '--directory', '--config-source', '--cluster', '--values', '--out', '--output'])
      expect(io.out).toContain(flag);
    expect(io.out).toContain('Examples:');
    expect(io.out).toContain('Exit codes: 0');
  });
});
