/**
 * `kubeServerFor(cluster, settings)`: the KubeCluster of one cluster reached by URL and bearer token, authenticated
 * the way its config items choose (core/kube/kube-auth-config.ts; docs/credentials.md):
 * - `token`: `api_server_url` with a bearer token: the cluster's own secret (`kube_token_secret`, read through
 *   `settings.readSecret`), else `settings.token` (CLM's `--token`, or the tokens secret's `clusterToken`);
 * - `eks`: `api_server_url` with an EKS token signed by `settings.stsFor(cluster)` (the role in the cluster's
 *   account), re-signed before it expires.
 * A cluster's `kube_ca_data` is its API server's CA (a private CA works). What the Lambda tasks use: no client-node.
 * `kubeconfig` mode is kube-for.ts's (the CLI's).
 *
 * Tokens and secret contents never reach a message: errors name the cluster, the secret and the item.
 */
import type { STSClient } from '@aws-sdk/client-sts';
import { kubeAuthConfig } from '../../core/kube/kube-auth-config';
import type { KubeAuthConfig, KubeAuthMode } from '../../core/kube/kube-auth-config';
import type { Cluster } from '../../core/model/cluster';
import type { KubeCluster } from '../../ports/kube-cluster';
import { ConfigError } from '../../shared/errors';
import { eksTokenSource } from './eks-token';
import { refreshingValue } from './refreshing-value';
import { kubeServerTransport } from './kube-server-transport';
import { RestKubeCluster } from './rest-kube-cluster';

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

export function missing(cluster: Cluster, what: string): never {
  throw new ConfigError(what, { location: { clusterId: cluster.id, field: 'config_items.kube_auth' } });
}

/**
 * The cluster's API in `token` or `eks` mode: its API server with a bearer token over Node's https
 * (kube-server-transport.ts), no client-node. `kubeconfig` mode needs a kubeconfig file, which only the CLI has
 * (kube-for.ts): here it fails naming the cluster and the item.
 */
export function kubeServerFor(cluster: Cluster, settings: KubeSettings = {}): KubeCluster {
  const auth = kubeAuthConfig(cluster, settings.defaultMode ?? (settings.kubeconfigPath ? 'kubeconfig' : 'token'));
  if (auth.mode === 'kubeconfig')
    return missing(cluster, 'kube_auth kubeconfig needs a kubeconfig file (--kubeconfig)');
  return serverConnection(cluster, auth, settings);
}

/** `token` and `eks` modes. */
export function serverConnection(
  cluster: Cluster,
  auth: Exclude<KubeAuthConfig, { readonly mode: 'kubeconfig' }>,
  settings: KubeSettings,
): KubeCluster {
  const now = settings.now ?? Date.now;
  const server = cluster.apiServerUrl;
  const ca = auth.caData ? { caData: auth.caData } : {};
  const connect = (connection: Parameters<typeof kubeServerTransport>[0]) =>
    new RestKubeCluster(kubeServerTransport(connection));
  if (auth.mode === 'eks') {
    if (!settings.stsFor) missing(cluster, 'kube_auth eks needs AWS credentials for the cluster account');
    return connect({ server, ...ca, tokenSource: eksTokenSource(settings.stsFor(cluster), auth.eksClusterName, now) });
  }
  if (!auth.tokenSecret) return connect({ server, ...ca, token: settings.token });
  if (!settings.readSecret)
    missing(cluster, `kube_token_secret ${auth.tokenSecret} needs Secrets Manager, which is not wired here`);
  return connect({
    server,
    ...ca,
    tokenSource: secretTokenSource(settings.readSecret, auth.tokenSecret, cluster.id, now),
  });
}
