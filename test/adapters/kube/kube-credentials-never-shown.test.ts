// No token, secret or AWS key ever shows in an error (message, cause chain, JSON), nor in a log line about it, in any
// of the three auth modes, whatever goes wrong: the API server refuses (401, 403), TLS fails, nobody answers, the
// secret is malformed, credentials cannot be had, the kubeconfig has no context for the cluster.
import { inspect } from 'node:util';
import { Logger } from '@aws-lambda-powertools/logger';
import { STSClient } from '@aws-sdk/client-sts';
import { kubeFor } from '../../../lambdas/adapters/kube/kube-for';
import type { KubeSettings } from '../../../lambdas/adapters/kube/kube-for';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { FakeKubeApi, statusBody } from '../../support/fake-kube-api';
import { OTHER_CA, PRIVATE_CA, kubeCluster, startTlsApi, writeKubeconfig } from './kube-support';

const SECRETS = {
  fallback: 'fallback-tok-Zq7u',
  clusterToken: 'cluster-tok-Jk2w',
  secretOnlyValue: 'secret-val-Px9r',
  kubeconfigToken: 'kcfg-tok-Wq3e',
  awsSecretKey: 'aws-secret-Hd8s/Kl',
  awsSessionToken: 'aws-session-Mn4b',
};

let api: FakeKubeApi;
let closedUrl: string;
let kubeconfig: string;
const printed: string[] = [];
const spies: jest.SpyInstance[] = [];

beforeAll(async () => {
  api = await startTlsApi();
  const closed = await FakeKubeApi.start();
  closedUrl = closed.url.replace('http:', 'https:');
  await closed.close();
  kubeconfig = writeKubeconfig(
    [{ name: 'only', server: api.url, token: SECRETS.kubeconfigToken, caData: PRIVATE_CA }],
    'only',
  );
  for (const stream of [process.stdout, process.stderr])
    spies.push(
      jest.spyOn(stream, 'write').mockImplementation((chunk: unknown) => {
        printed.push(String(chunk));
        return true;
      }),
    );
});
afterAll(async () => {
  for (const spy of spies) spy.mockRestore();
  await api.close();
});

const sts = (fail: boolean) =>
  new STSClient({
    region: 'eu-west-1',
    credentials: fail
      ? async () => {
          throw new Error('could not load credentials from any providers');
        }
      : { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: SECRETS.awsSecretKey, sessionToken: SECRETS.awsSessionToken },
  });

const settings: KubeSettings = {
  defaultMode: 'token',
  token: SECRETS.fallback,
  readSecret: async (id) =>
    id === 'good'
      ? JSON.stringify({ token: SECRETS.clusterToken })
      : id === 'spaces'
        ? `${SECRETS.secretOnlyValue} and more`
        : JSON.stringify({ password: SECRETS.secretOnlyValue }),
  stsFor: () => sts(false),
};

interface Case {
  readonly name: string;
  readonly cluster: () => Cluster;
  readonly overrides?: Partial<KubeSettings>;
  readonly arrange?: () => void;
  /** What the error says: the failure this case is about really happened. */
  readonly says: RegExp;
  /** A token went out (and must not come back in the error). */
  readonly sent: boolean;
}
const refuse = (status: number) => () => api.inject({ status, times: 10, body: statusBody(status, 'Forbidden', 'no') });
const eks = { kube_auth: 'eks', kube_ca_data: PRIVATE_CA };
const ca = { kube_ca_data: PRIVATE_CA };

const CASES: Case[] = [
  { name: 'token: 401', cluster: () => kubeCluster(api.url, ca), arrange: refuse(401), says: /HTTP 401/, sent: true },
  { name: 'token: 403', cluster: () => kubeCluster(api.url, ca), arrange: refuse(403), says: /HTTP 403/, sent: true },
  {
    name: 'token: wrong CA',
    cluster: () => kubeCluster(api.url, { kube_ca_data: OTHER_CA }),
    says: /certificate/,
    sent: false,
  },
  { name: 'token: nobody answers', cluster: () => kubeCluster(closedUrl, ca), says: /ECONNREFUSED/, sent: false },
  {
    name: 'secret: 401',
    cluster: () => kubeCluster(api.url, { ...ca, kube_token_secret: 'good' }),
    arrange: refuse(401),
    says: /HTTP 401/,
    sent: true,
  },
  {
    name: 'secret: no token key',
    cluster: () => kubeCluster(api.url, { ...ca, kube_token_secret: 'json-without-token' }),
    says: /secret json-without-token is neither a token nor JSON/,
    sent: false,
  },
  {
    name: 'secret: not a token',
    cluster: () => kubeCluster(api.url, { ...ca, kube_token_secret: 'spaces' }),
    says: /secret spaces holds no usable token/,
    sent: false,
  },
  { name: 'eks: 401', cluster: () => kubeCluster(api.url, eks), arrange: refuse(401), says: /HTTP 401/, sent: true },
  {
    name: 'eks: wrong CA',
    cluster: () => kubeCluster(api.url, { ...eks, kube_ca_data: OTHER_CA }),
    says: /certificate/,
    sent: false,
  },
  {
    name: 'eks: no credentials',
    cluster: () => kubeCluster(api.url, eks),
    overrides: { stsFor: () => sts(true) },
    says: /cannot make an EKS token .*could not load credentials/,
    sent: false,
  },
  {
    name: 'kubeconfig: 401',
    cluster: () => kubeCluster(api.url, { kube_auth: 'kubeconfig' }, 'only'),
    arrange: refuse(401),
    says: /HTTP 401/,
    sent: true,
  },
  {
    name: 'kubeconfig: no context',
    cluster: () => kubeCluster('https://x.example.org', { kube_auth: 'kubeconfig' }, 'k9'),
    says: /kubeconfig has no context for this cluster/,
    sent: false,
  },
];

describe('credentials never shown', () => {
  it.each(CASES)('$name', async ({ cluster, overrides, arrange, says, sent }) => {
    api.requests.length = 0;
    api.injected.length = 0;
    arrange?.();
    const logger = new Logger({ serviceName: 'clm', logLevel: 'DEBUG' });
    let caught: unknown;
    try {
      const kube = kubeFor(cluster(), { ...settings, kubeconfigPath: kubeconfig, ...overrides });
      await kube.listNodes();
    } catch (error) {
      caught = error;
    }

    expect(caught).toBeInstanceOf(Error);
    expect((caught as Error).message).toMatch(says);
    logger.error('Task failed', caught as Error);
    const shown = [
      String(caught),
      JSON.stringify({ error: (caught as Error).name, cause: (caught as Error).message }), // the execution's output
      inspect(caught, { depth: 30 }),
      ...printed,
    ].join('\n');
    const tokensSent = api.requests.map((r) => r.authorization?.replace('Bearer ', '') ?? '').filter(Boolean);
    expect(tokensSent.length > 0).toBe(sent);
    for (const secret of [...Object.values(SECRETS), ...tokensSent])
      expect([secret, shown.includes(secret)]).toEqual([secret, false]);
    expect(printed.join('')).toContain('Task failed'); // the log line was written, and looked at
  });
});
