import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientNodeKubeCluster } from '../../../lambdas/adapters/kube/client-node-kube-cluster';
import { STSClient } from '@aws-sdk/client-sts';
import { EKS_TOKEN_PREFIX, REFRESH_AFTER_MS } from '../../../lambdas/adapters/kube/eks-token';
import { SECRET_TOKEN_TTL_MS, kubeFor } from '../../../lambdas/adapters/kube/kube-for';
import { ConfigError, TransientApiError } from '../../../lambdas/shared/errors';
import type { FakeKubeApi } from '../../support/fake-kube-api';
import { OTHER_CA, PRIVATE_CA, kubeCluster, startTlsApi, writeKubeconfig } from './kube-support';

const CREDENTIALS = { accessKeyId: 'AKIAEXAMPLEKEY', secretAccessKey: 'example/secret/key', sessionToken: 'session-x' };
let api: FakeKubeApi;

beforeAll(async () => {
  api = await startTlsApi();
});
afterAll(() => api.close());
beforeEach(() => {
  api.requests.length = 0;
});

const bearer = () => api.requests.map((r) => r.authorization);

describe('kubeFor: token mode', () => {
  it('reaches an API server with a private CA through kube_ca_data, with CLM’s token', async () => {
    const kube = kubeFor(kubeCluster(api.url, { kube_ca_data: PRIVATE_CA }), { token: 'fallback-token' });

    expect(await kube.ready()).toBe(true);
    expect(bearer()).toEqual(['Bearer fallback-token']);
  });

  it('fails TLS without the cluster’s CA, or with another CA', async () => {
    for (const items of [{}, { kube_ca_data: OTHER_CA }] as Record<string, string>[]) {
      const kube = kubeFor(kubeCluster(api.url, items), { token: 't' });
      expect(await kube.ready()).toBe(false);
      await expect(kube.listNodes()).rejects.toThrow(/certificate/i);
    }
    expect(api.requests).toHaveLength(0);
  });

  it('uses the cluster’s own secret over the fallback, reads it once, and again after the TTL', async () => {
    let now = 0;
    const reads: string[] = [];
    let secret = '{"token": "cluster-token-1"}';
    const kube = kubeFor(kubeCluster(api.url, { kube_ca_data: PRIVATE_CA, kube_token_secret: 'clm/kube-1' }), {
      token: 'fallback-token',
      now: () => now,
      readSecret: async (id) => {
        reads.push(id);
        return secret;
      },
    });

    await kube.listNodes();
    await kube.listNodes();
    secret = 'cluster-token-2'; // rotated, as a plain string this time
    now = SECRET_TOKEN_TTL_MS;
    await kube.listNodes();

    expect(reads).toEqual(['clm/kube-1', 'clm/kube-1']);
    expect(bearer()).toEqual(['Bearer cluster-token-1', 'Bearer cluster-token-1', 'Bearer cluster-token-2']);
  });

  it('fails clearly, without quoting it, when the secret holds no token', async () => {
    const kube = kubeFor(kubeCluster(api.url, { kube_ca_data: PRIVATE_CA, kube_token_secret: 'clm/kube-1' }), {
      readSecret: async () => '{"password": "hunter2"}',
    });
    await expect(kube.ready()).rejects.toThrow(ConfigError);
    await expect(kube.listNodes()).rejects.toThrow(
      'cluster aws:123456789012:eu-west-1:kube-1, field config_items.kube_token_secret: secret clm/kube-1 is neither a token nor JSON {"token": "..."}',
    );
  });

  it('refuses a per-cluster secret where no secret reader is wired', () => {
    expect(() => kubeFor(kubeCluster(api.url, { kube_token_secret: 's' }), {})).toThrow(
      'kube_token_secret s needs Secrets Manager',
    );
  });
});

/** SigV4 query signature, computed independently of the SDK (AWS General Reference, "Signature Version 4"). */
function expectedSignature(url: URL, clusterName: string, secretKey: string): string {
  const encode = (s: string) =>
    encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const params = [...url.searchParams].filter(([k]) => k !== 'X-Amz-Signature');
  const query = params
    .map(([k, v]) => `${encode(k)}=${encode(v)}`)
    .sort()
    .join('&');
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  const canonical = [
    'GET',
    '/',
    query,
    `host:${url.host}`,
    `x-k8s-aws-id:${clusterName}`,
    '',
    'host;x-k8s-aws-id',
    sha(''),
  ].join('\n');
  const date = url.searchParams.get('X-Amz-Date')!;
  const scope = url.searchParams.get('X-Amz-Credential')!.split('/').slice(1).join('/');
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha(canonical)].join('\n');
  const [day, region, service] = scope.split('/');
  let key: Buffer = createHmac('sha256', `AWS4${secretKey}`).update(day!).digest();
  for (const part of [region!, service!, 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
  return createHmac('sha256', key).update(toSign).digest('hex');
}

function decode(authorization: string | undefined): URL {
  expect(authorization).toMatch(new RegExp(`^Bearer ${EKS_TOKEN_PREFIX.replace('.', '\\.')}[A-Za-z0-9_-]+$`));
  return new URL(Buffer.from(authorization!.slice(`Bearer ${EKS_TOKEN_PREFIX}`.length), 'base64url').toString());
}

describe('kubeFor: eks mode', () => {
  const sts = new STSClient({ region: 'eu-west-1', credentials: CREDENTIALS });

  it('sends a presigned STS GetCallerIdentity for the cluster name, as aws eks get-token makes it', async () => {
    const cluster = kubeCluster(api.url, {
      kube_auth: 'eks',
      kube_ca_data: PRIVATE_CA,
      kube_eks_cluster_name: 'pay-1',
    });
    const kube = kubeFor(cluster, { stsFor: () => sts, now: () => Date.parse('2026-03-01T10:00:00Z') });

    expect(await kube.ready()).toBe(true);

    const url = decode(bearer()[0]);
    expect(`${url.origin}${url.pathname}`).toBe('https://sts.eu-west-1.amazonaws.com/');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      Action: 'GetCallerIdentity',
      Version: '2011-06-15',
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': 'AKIAEXAMPLEKEY/20260301/eu-west-1/sts/aws4_request',
      'X-Amz-Date': '20260301T100000Z',
      'X-Amz-Expires': '60',
      'X-Amz-SignedHeaders': 'host;x-k8s-aws-id',
      'X-Amz-Security-Token': 'session-x',
    });
    expect(url.searchParams.get('X-Amz-Signature')).toBe(expectedSignature(url, 'pay-1', CREDENTIALS.secretAccessKey));
  });

  it('keeps a token for ten minutes and signs a new one before its fifteen run out', async () => {
    let now = Date.parse('2026-03-01T10:00:00Z');
    const cluster = kubeCluster(api.url, { kube_auth: 'eks', kube_ca_data: PRIVATE_CA });
    const kube = kubeFor(cluster, { stsFor: () => sts, now: () => now });

    await kube.listNodes();
    now += REFRESH_AFTER_MS - 1;
    await kube.listNodes();
    now += 1;
    await kube.listNodes();

    const dates = bearer().map((a) => decode(a).searchParams.get('X-Amz-Date'));
    expect(dates).toEqual(['20260301T100000Z', '20260301T100000Z', '20260301T101000Z']);
    expect(REFRESH_AFTER_MS).toBeLessThan(15 * 60_000);
  });

  it('fails with the credential error, naming the cluster, when no credentials can be had', async () => {
    const broken = new STSClient({
      region: 'eu-west-1',
      credentials: async () => {
        throw new TransientApiError('STS AssumeRole arn:aws:iam::123456789012:role/clm: throttled');
      },
    });
    const kube = kubeFor(kubeCluster(api.url, { kube_auth: 'eks', kube_ca_data: PRIVATE_CA }), {
      stsFor: () => broken,
    });
    await expect(kube.ready()).rejects.toThrow(
      'cannot make an EKS token for cluster aws:123456789012:eu-west-1:kube-1: STS AssumeRole arn:aws:iam::123456789012:role/clm: throttled',
    );
    expect(api.requests).toHaveLength(0);
  });
});

describe('kubeFor: kubeconfig mode', () => {
  let file: string;
  beforeAll(() => {
    file = writeKubeconfig(
      [
        { name: 'current', server: 'https://elsewhere.example.org', token: 'current-token' },
        { name: 'aws:123456789012:eu-west-1:by-id', server: api.url, token: 'id-token', caData: PRIVATE_CA },
        { name: 'by-alias', server: api.url, token: 'alias-token', caData: PRIVATE_CA },
        {
          name: 'by-server',
          server: `${api.url.replace('127.0.0.1', 'localhost')}/`,
          token: 'server-token',
          caData: PRIVATE_CA,
        },
        { name: 'no-ca', server: api.url, token: 'no-ca-token' },
      ],
      'current',
    );
  });
  const via = async (items: Record<string, string>, name: string, apiServerUrl = api.url) => {
    api.requests.length = 0;
    await kubeFor(kubeCluster(apiServerUrl, items, name), { kubeconfigPath: file }).listNodes();
    return bearer()[0];
  };

  it('chooses the context by kube_context, then cluster id, then alias, then API server URL', async () => {
    expect(await via({ kube_context: 'by-alias' }, 'by-id')).toBe('Bearer alias-token');
    expect(await via({}, 'by-id')).toBe('Bearer id-token');
    expect(await via({}, 'by-alias')).toBe('Bearer alias-token');
    expect(await via({}, 'anything', api.url.replace('127.0.0.1', 'LOCALHOST'))).toBe('Bearer server-token');
  });

  it('refuses to guess between several contexts of one API server', () => {
    expect(() => kubeFor(kubeCluster(api.url, {}, 'anything'), { kubeconfigPath: file })).toThrow(
      'kubeconfig has several contexts for',
    );
  });

  it('never falls back to the current context', () => {
    expect(() => kubeFor(kubeCluster('https://other.example.org', {}, 'kube-9'), { kubeconfigPath: file })).toThrow(
      /cluster aws:123456789012:eu-west-1:kube-9, .*config: kubeconfig has no context for this cluster: none named "aws:123456789012:eu-west-1:kube-9" or "kube-9", none with server https:\/\/other.example.org \(set the config item kube_context\); known: current, /,
    );
    expect(() => kubeFor(kubeCluster(api.url, { kube_context: 'nope' }), { kubeconfigPath: file })).toThrow(
      'kubeconfig has no context "nope"',
    );
  });

  it('uses kube_ca_data over the context’s CA', async () => {
    const noCa = kubeFor(kubeCluster(api.url, { kube_context: 'no-ca' }), { kubeconfigPath: file });
    await expect(noCa.listNodes()).rejects.toThrow(/certificate/i);
    expect(await via({ kube_context: 'no-ca', kube_ca_data: PRIVATE_CA }, 'kube-1')).toBe('Bearer no-ca-token');
    const wrong = kubeFor(kubeCluster(api.url, { kube_context: 'by-alias', kube_ca_data: OTHER_CA }), {
      kubeconfigPath: file,
    });
    await expect(wrong.listNodes()).rejects.toThrow(/certificate/i);
  });

  it('goes through client-node for a context whose user is more than a token (an exec plugin)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clm-kubeconfig-exec-'));
    const path = join(dir, 'config');
    const credential = JSON.stringify({
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      kind: 'ExecCredential',
      status: { token: 'exec-token' },
    });
    writeFileSync(
      path,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        `- name: c\n  cluster:\n    server: ${api.url}\n    certificate-authority-data: ${PRIVATE_CA}`,
        'users:',
        `- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: ${process.execPath}\n      args: ["-e", ${JSON.stringify(`process.stdout.write(${JSON.stringify(credential)})`)}]`,
        'contexts:',
        '- name: kube-1\n  context:\n    cluster: c\n    user: u',
        'current-context: kube-1',
      ].join('\n'),
    );
    const kube = kubeFor(kubeCluster(api.url, { kube_context: 'kube-1' }), { kubeconfigPath: path });
    expect(kube).toBeInstanceOf(ClientNodeKubeCluster);
    await kube.listNodes();
    expect(bearer()).toEqual(['Bearer exec-token']);
    // a context with just a token and a CA goes the Lambda tasks' way
    expect(kubeFor(kubeCluster(api.url, { kube_context: 'by-alias' }), { kubeconfigPath: file })).not.toBeInstanceOf(
      ClientNodeKubeCluster,
    );
  });

  it('is the default mode when the CLI has a kubeconfig, and needs one otherwise', () => {
    expect(() => kubeFor(kubeCluster(api.url, { kube_auth: 'kubeconfig' }), {})).toThrow(
      'kube_auth kubeconfig needs a kubeconfig file (--kubeconfig)',
    );
  });
});
