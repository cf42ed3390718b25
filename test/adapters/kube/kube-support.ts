// Shared data of the kube auth tests: the loopback HTTPS API server with a private CA, clusters, a kubeconfig.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_STATUS } from '../../../lambdas/core/model/cluster';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { FakeKubeApi } from '../../support/fake-kube-api';

const TLS = join(__dirname, '../../fixtures/tls');
const pem = (name: string) => readFileSync(join(TLS, name), 'utf8');

/** base64 PEM, as kube_ca_data and kubeconfig certificate-authority-data take it. */
export const PRIVATE_CA = Buffer.from(pem('ca.pem')).toString('base64');
export const OTHER_CA = Buffer.from(pem('other-ca.pem')).toString('base64');

/** The fake API server on https://127.0.0.1:PORT with a certificate of the private CA. */
export function startTlsApi(): Promise<FakeKubeApi> {
  return FakeKubeApi.start({ key: pem('server.key'), cert: pem('server.pem') });
}

export function kubeCluster(apiServerUrl: string, configItems: Record<string, string>, name = 'kube-1'): Cluster {
  return {
    id: `aws:123456789012:eu-west-1:${name}`,
    alias: name,
    localId: name,
    apiServerUrl,
    channel: 'stable',
    configItems,
    criticalityLevel: 1,
    environment: 'test',
    infrastructureAccount: 'aws:123456789012',
    lifecycleStatus: 'ready',
    nodePools: [],
    provider: 'zalando-aws',
    region: 'eu-west-1',
    status: EMPTY_STATUS,
  };
}

export interface KubeconfigContext {
  readonly name: string;
  readonly server: string;
  readonly token: string;
  readonly caData?: string;
}

/** A kubeconfig file with one cluster and one user per context; `current` as current-context. */
export function writeKubeconfig(contexts: readonly KubeconfigContext[], current: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'clm-kubeconfig-')), 'config');
  const yaml = [
    'apiVersion: v1',
    'kind: Config',
    `current-context: ${current}`,
    'clusters:',
    ...contexts.flatMap((c) => [
      `- name: ${c.name}-cluster`,
      '  cluster:',
      `    server: ${c.server}`,
      ...(c.caData ? [`    certificate-authority-data: ${c.caData}`] : []),
    ]),
    'users:',
    ...contexts.flatMap((c) => [`- name: ${c.name}-user`, '  user:', `    token: ${c.token}`]),
    'contexts:',
    ...contexts.flatMap((c) => [
      `- name: ${c.name}`,
      '  context:',
      `    cluster: ${c.name}-cluster`,
      `    user: ${c.name}-user`,
    ]),
  ].join('\n');
  writeFileSync(path, `${yaml}\n`);
  return path;
}
