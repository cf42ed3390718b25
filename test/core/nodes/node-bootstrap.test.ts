import { gzipSync } from 'node:zlib';
import { packFilesBundle, unpackFilesBundle } from '../../../lambdas/core/nodes/files-archive';
import {
  bootstrapNode,
  bootstrapNodeSync,
  filesBundles,
  userDataText,
  type Outcome,
} from '../../../lambdas/core/nodes/node-bootstrap';
import { ConfigError } from '../../../lambdas/shared/errors';

const files = [
  { path: '/etc/a', data: Buffer.from('plain').toString('base64'), encrypted: false, permissions: 0o644 },
  {
    path: `/etc/${'x'.repeat(120)}/b`,
    data: Buffer.from('secret').toString('base64'),
    encrypted: true,
    permissions: 0o400,
  },
];
const bundle = {
  s3Path: 's3://b/k/worker/1.userdata',
  files,
  kmsKeyOutput: 'WorkerFilesEncryptionKey',
  kmsKeyId: 'key-1',
};
/** A stand-in KMS: "ciphertext" is the reversed plaintext prefixed with the key. */
const encrypt = async (keyId: string, plain: Uint8Array) =>
  Buffer.concat([Buffer.from(`${keyId}:`), Buffer.from(plain).reverse()]);

describe('packFilesBundle / unpackFilesBundle', () => {
  it('packs a tar.gz: data decoded, modes kept, encrypted files as <path>.enc holding the ciphertext', async () => {
    const entries = unpackFilesBundle(await packFilesBundle(bundle, encrypt));
    expect(entries.map((e) => [e.path, e.mode, Buffer.from(e.content).toString()])).toEqual([
      ['/etc/a', 0o644, 'plain'],
      [`/etc/${'x'.repeat(120)}/b.enc`, 0o400, 'key-1:terces'],
    ]);
  });

  it('refuses to pack a secret without a key, naming the bundle, the file and the output', async () => {
    const packing = packFilesBundle({ ...bundle, kmsKeyId: undefined }, encrypt, { clusterId: 'c' });
    await expect(packing).rejects.toThrow(ConfigError);
    await expect(packing).rejects.toThrow(
      `files bundle s3://b/k/worker/1.userdata: /etc/${'x'.repeat(120)}/b is encrypted: true, but there is no KMS key to encrypt it with (WorkerFilesEncryptionKey is unknown`,
    );
  });

  it('says what is wrong with bytes that are not a tar.gz', () => {
    expect(() => unpackFilesBundle(Buffer.from('{"files":[]}'))).toThrow(
      'not a tar.gz (starts with "{\\"files\\":[]}")',
    );
    expect(() => unpackFilesBundle(gzipSync('{"files":[]}'))).toThrow(/not a tar archive|checksum mismatch/);
    expect(() => unpackFilesBundle(Buffer.from([0x1f, 0x8b, 1, 2]))).toThrow(/^not a tar\.gz: /);
  });
});

describe('the node bootstrap', () => {
  const userData = gzipSync(
    '#cloud-config\nS3_CERTS_BUCKET=s3://cluster-lifecycle-manager-1-eu/k/worker/ab.userdata\n',
  );

  it('finds the bundles user data names, base64 and gzipped or raw', () => {
    expect(filesBundles(userDataText(userData.toString('base64')))).toEqual([
      { bucket: 'cluster-lifecycle-manager-1-eu', key: 'k/worker/ab.userdata' },
    ]);
    expect(
      filesBundles('- [/opt/fetch, "s3://b-1/x/y.userdata"]\n- s3://b-1/x/y.userdata\ns3://b/not-a-bundle.sh'),
    ).toEqual([{ bucket: 'b-1', key: 'x/y.userdata' }]);
    expect(filesBundles('#cloud-config\nruncmd: [echo]\n')).toEqual([]);
  });

  it('fetches, unpacks and decrypts every .enc file; the first failure is the reason', async () => {
    const object = await packFilesBundle(bundle, encrypt);
    const decrypted: string[] = [];
    const env = {
      fetch: (bucket: string, key: string): Outcome<Uint8Array> =>
        key === 'k/worker/ab.userdata'
          ? { ok: true, value: object }
          : { ok: false, reason: `NoSuchKey: ${bucket}/${key}` },
      decrypt: (ciphertext: Uint8Array): Outcome<Uint8Array> => {
        decrypted.push(Buffer.from(ciphertext).toString());
        return { ok: true, value: Buffer.from('secret') };
      },
    };
    const location = [{ bucket: 'cluster-lifecycle-manager-1-eu', key: 'k/worker/ab.userdata' }];
    expect(bootstrapNodeSync(location, env)).toEqual({
      ok: true,
      bundles: ['s3://cluster-lifecycle-manager-1-eu/k/worker/ab.userdata'],
      files: 2,
      decrypted: 1,
    });
    expect(decrypted).toEqual(['key-1:terces']);
    expect(
      await bootstrapNode([{ bucket: 'b', key: 'missing.userdata' }], {
        fetch: async (b, k) => env.fetch(b, k),
        decrypt: async (c) => env.decrypt(c),
      }),
    ).toEqual({ ok: false, reason: 'files bundle s3://b/missing.userdata: NoSuchKey: b/missing.userdata' });
    const denied = { ...env, decrypt: (): Outcome<Uint8Array> => ({ ok: false, reason: 'AccessDenied: no' }) };
    expect(bootstrapNodeSync(location, denied)).toEqual({
      ok: false,
      reason: `files bundle s3://cluster-lifecycle-manager-1-eu/k/worker/ab.userdata: cannot decrypt /etc/${'x'.repeat(120)}/b.enc: AccessDenied: no`,
    });
    expect(bootstrapNodeSync([], env)).toEqual({ ok: true, bundles: [], files: 0, decrypted: 0 });
  });
});
