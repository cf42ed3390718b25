import {
  filesKey,
  isStdBase64,
  nodeFilesBucket,
  parseFilesYaml,
  sha512Hex,
} from '../../../lambdas/core/render/files-bundle';
import { testCluster } from '../../support/test-cluster';
import { ConfigError } from '../../../lambdas/shared/errors';

const FILE = 'main/cluster/node-pools/worker-default/files.yaml';

describe('parseFilesYaml', () => {
  it('reads files with YAML 1.1 modes (0644 is octal, as in CLM)', () => {
    const files = parseFilesYaml(
      'files:\n  - {path: /a, data: aGk=, permissions: 0644}\n  - {path: /b, data: "", encrypted: true, permissions: 0o400}\n  - {path: /c, permissions: 420}\n',
      FILE,
    );
    expect(files).toEqual([
      { path: '/a', data: 'aGk=', encrypted: false, permissions: 0o644 },
      { path: '/b', data: '', encrypted: true, permissions: 0o400 },
      { path: '/c', data: '', encrypted: false, permissions: 420 },
    ]);
  });

  it('accepts an empty render and an empty list', () => {
    expect(parseFilesYaml('', FILE)).toEqual([]);
    expect(parseFilesYaml('files: []\n', FILE)).toEqual([]);
  });

  it('is strict: unknown keys, missing paths, bad data, modes and flags fail naming the entry', () => {
    expect(() => parseFilesYaml('files: []\nextra: 1\n', FILE)).toThrow(
      `${FILE}: unknown key "extra" (only "files" is allowed)`,
    );
    expect(() => parseFilesYaml('files:\n  - {data: aGk=}\n', FILE)).toThrow(
      `${FILE}, field files[0]: path is required`,
    );
    expect(() => parseFilesYaml('files:\n  - {path: /a, owner: root}\n', FILE)).toThrow(
      /field files\[0\]: unknown field "owner"/,
    );
    expect(() => parseFilesYaml('files:\n  - {path: /a, data: "not base64!"}\n', FILE)).toThrow(
      'data of /a is not base64',
    );
    expect(() => parseFilesYaml('files:\n  - {path: /a, permissions: rw}\n', FILE)).toThrow(
      'permissions of /a must be a file mode such as 0644',
    );
    expect(() => parseFilesYaml('files:\n  - {path: /a, encrypted: maybe}\n', FILE)).toThrow(
      'encrypted of /a must be true or false',
    );
    expect(() => parseFilesYaml('files: {path: /a}\n', FILE)).toThrow(ConfigError);
  });
});

describe('files location', () => {
  it('is content-addressed by the SHA-512 of the rendered files.yaml, under <LocalID>/<role>/ (CLM path.Join)', () => {
    const sha = sha512Hex('files: []\n');
    expect(sha).toHaveLength(128);
    expect(sha512Hex('files: [] \n')).not.toBe(sha);
    expect(filesKey('kube-1', 'worker', sha)).toBe(`kube-1/worker/${sha}.userdata`);
    expect(filesKey('kube-1', 'etcd', sha)).toBe(`kube-1/etcd/${sha}.userdata`);
  });

  it("goes to CLM's bucket of the cluster's account and region, or the bucket the cluster names", () => {
    const cluster = testCluster({ infrastructureAccount: 'aws:210987654321', region: 'us-east-1' });
    expect(nodeFilesBucket(cluster)).toEqual({
      bucket: 'cluster-lifecycle-manager-210987654321-us-east-1',
      configured: false,
    });
    const named = { ...cluster, configItems: { node_files_bucket: 'acme-node-files' } };
    expect(nodeFilesBucket(named)).toEqual({ bucket: 'acme-node-files', configured: true });
  });

  it('refuses a configured name S3 would refuse, naming the cluster and the item', () => {
    const cluster = { ...testCluster(), configItems: { node_files_bucket: 'Acme_Files' } };
    expect(() => nodeFilesBucket(cluster)).toThrow(ConfigError);
    expect(() => nodeFilesBucket(cluster)).toThrow(
      /config_items.node_files_bucket.*"Acme_Files" is not an S3 bucket name/,
    );
    for (const bad of ['ab', 'a..b', '192.168.0.1', '-abc', `a${'b'.repeat(63)}`])
      expect(() => nodeFilesBucket({ ...cluster, configItems: { node_files_bucket: bad } })).toThrow(ConfigError);
  });
});

describe('isStdBase64 (Go StdEncoding, as CLM decodes files.yaml data)', () => {
  it('wants padding and the standard alphabet, ignoring only line breaks', () => {
    expect(isStdBase64('aGk=')).toBe(true);
    expect(isStdBase64('aGVs\nbG8=')).toBe(true);
    expect(isStdBase64('')).toBe(true);
    expect(isStdBase64('aGk')).toBe(false);
    expect(isStdBase64('aG k=')).toBe(false);
    expect(isStdBase64('aGk_')).toBe(false);
  });
});
