/**
 * `kubeFor(cluster, settings)`: the KubeCluster of one cluster, authenticated the way its config items choose
 * (core/kube/kube-auth-config.ts; docs/credentials.md):
 * - `token`: `api_server_url` with a bearer token: the cluster's own secret (`kube_token_secret`, read through
 *   `settings.readSecret`), else `settings.token` (CLM's `--token`, or the tokens secret's `clusterToken`);
 * - `eks`: `api_server_url` with an EKS token signed by `settings.stsFor(cluster)` (the role in the cluster's
 *   account), re-signed before it expires;
 * - `kubeconfig`: a context of `settings.kubeconfigPath` chosen for the cluster (kubeconfig-context.ts).
 * A cluster's `kube_ca_data` is its API server's CA in every mode (a private CA works).
 *
 * Tokens and secret contents never reach a message: errors name the cluster, the secret and the item.
 */
import type { STSClient } from '@aws-sdk/client-sts';
import { kubeAuthConfig } from '../../core/kube/kube-auth-config';
import type { KubeAuthConfig, KubeAuthMode } from '../../core/kube/kube-auth-config';
import type { Cluster } from '../../core/model/cluster';
import type { KubeCluster } from '../../ports/kube-cluster';
import { ConfigError } from '../../shared/errors';
import { ClientNodeKubeCluster } from './client-node-kube-cluster';
import { eksTokenSource } from './eks-token';
import { kubeconfigForCluster } from './kubeconfig-context';
import { refreshingValue } from './refreshing-value';

export interface KubeSettings {
  /** @default 'kubeconfig' when `kubeconfigPath` is set, else 'token' */
  readonly defaultMode?: KubeAuthMode;
  /** The bearer token of `token`-mode clusters without `kube_token_secret` (CLM's `--token`). @default - none */
  readonly token?: string;
  /** Reads a Secrets Manager secret's SecretString (for `kube_token_secret`). @default - such clusters fail */
  readonly readSecret?: (secretId: string) => Promise<string>;
  /** The kubeconfig file of `kubeconfig`-mode clusters (`--kubeconfig`). @default - such clusters fail */
  readonly kubeconfigPath?: string;
  /** STS acting in the cluster's account and region, for `eks`-mode clusters. @default - such clusters fail */
  readonly stsFor?: (cluster: Cluster) => STSClient;
  /** @default Date.now */
  readonly now?: () => number;
}

/** How long a token read from a cluster's secret is used before it is read again (picks up rotations). */
export const SECRET_TOKEN_TTL_MS = 5 * 60_000;

/** The token in a secret: the whole SecretString, or its `token` key when it is a JSON object. */
export function tokenFromSecret(text: string, secretId: string, clusterId: string): string {
  const trimmed = text.trim();
  let token = trimmed;
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = undefined; // JSON.parse's message quotes the input: never pass it on
    }
    const value = (parsed as { token?: unknown } | undefined)?.token;
    if (typeof value !== 'string')
      throw new ConfigError(`secret ${secretId} is neither a token nor JSON {"token": "..."}`, {
        location: { clusterId, field: 'config_items.kube_token_secret' },
      });
    token = value.trim();
  }
  if (!token || /\s/.test(token))
    throw new ConfigError(`secret ${secretId} holds no usable token (empty, or with whitespace inside)`, {
      location: { clusterId, field: 'config_items.kube_token_secret' },
    });
  return token;
}

function secretTokenSource(
  read: (secretId: string) => Promise<string>,
  secretId: string,
  clusterId: string,
  now: () => number,
): () => Promise<string> {
  return refreshingValue(
    () => read(secretId).then((text) => tokenFromSecret(text, secretId, clusterId)),
    SECRET_TOKEN_TTL_MS,
    now,
  );
}

function missing(cluster: Cluster, what: string): never {
  throw new ConfigError(what, { location: { clusterId: cluster.id, field: 'config_items.kube_auth' } });
}

function connect(cluster: Cluster, auth: KubeAuthConfig, settings: KubeSettings): ClientNodeKubeCluster {
  const now = settings.now ?? Date.now;
  const server = cluster.apiServerUrl;
  const ca = auth.caData ? { caData: auth.caData } : {};
  switch (auth.mode) {
    case 'kubeconfig':
      if (!settings.kubeconfigPath) missing(cluster, 'kube_auth kubeconfig needs a kubeconfig file (--kubeconfig)');
      return new ClientNodeKubeCluster(kubeconfigForCluster(settings.kubeconfigPath, cluster, auth));
    case 'eks':
      if (!settings.stsFor) missing(cluster, 'kube_auth eks needs AWS credentials for the cluster account');
      return new ClientNodeKubeCluster({
        server,
        ...ca,
        tokenSource: eksTokenSource(settings.stsFor(cluster), auth.eksClusterName, now),
      });
    case 'token': {
      if (!auth.tokenSecret) return new ClientNodeKubeCluster({ server, ...ca, token: settings.token });
      if (!settings.readSecret)
        missing(cluster, `kube_token_secret ${auth.tokenSecret} needs Secrets Manager, which is not wired here`);
      return new ClientNodeKubeCluster({
        server,
        ...ca,
        tokenSource: secretTokenSource(settings.readSecret, auth.tokenSecret, cluster.id, now),
      });
    }
  }
}

/** The cluster's API, authenticated per its config items; bad items fail here, naming the cluster and the item. */
export function kubeFor(cluster: Cluster, settings: KubeSettings = {}): KubeCluster {
  const auth = kubeAuthConfig(cluster, settings.defaultMode ?? (settings.kubeconfigPath ? 'kubeconfig' : 'token'));
  return connect(cluster, auth, settings);
}
