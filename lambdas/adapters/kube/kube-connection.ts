/**
 * How to reach one cluster's API server: an explicit server and bearer token (CLM's `--token`, the way the Lambda
 * tasks connect), or a kubeconfig file and context (`--kubeconfig`, for the CLI and the integration suite).
 */
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { ConfigError } from '../../shared/errors';
import { checkServerUrl, type KubeServerConnection } from './kube-server-transport';

export type { KubeServerConnection } from './kube-server-transport';

export interface KubeconfigFileConnection {
  readonly kubeconfigPath: string;
  /** @default - the file's current-context */
  readonly context?: string;
}

export type KubeConnection = KubeServerConnection | KubeconfigFileConnection;

const NAME = 'clm';

export function kubeConfigFrom(connection: KubeConnection): KubeConfig {
  const kc = new KubeConfig();
  if ('kubeconfigPath' in connection) {
    try {
      kc.loadFromFile(connection.kubeconfigPath);
    } catch (error) {
      throw new ConfigError(`cannot read kubeconfig ${connection.kubeconfigPath}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (connection.context) {
      if (!kc.getContextObject(connection.context)) {
        const known = kc.getContexts().map((c) => c.name);
        throw new ConfigError(
          `kubeconfig ${connection.kubeconfigPath} has no context "${connection.context}" (known: ${known.join(', ') || 'none'})`,
        );
      }
      kc.setCurrentContext(connection.context);
    }
    if (!kc.getCurrentCluster()) throw new ConfigError(`kubeconfig ${connection.kubeconfigPath} selects no cluster`);
    return kc;
  }
  checkServerUrl(connection);
  kc.loadFromOptions({
    clusters: [
      {
        name: NAME,
        server: connection.server.replace(/\/+$/, ''),
        caData: connection.caData,
        skipTLSVerify: connection.skipTLSVerify ?? false,
      },
    ],
    users: [{ name: NAME, ...(connection.token && !connection.tokenSource ? { token: connection.token } : {}) }],
    contexts: [{ name: NAME, cluster: NAME, user: NAME }],
    currentContext: NAME,
  });
  if (connection.tokenSource) kc.addAuthenticator(bearerTokenAuthenticator(NAME, connection.tokenSource));
  return kc;
}

type Authenticator = Parameters<KubeConfig['addAuthenticator']>[0];

/**
 * Sets `Authorization: Bearer <token>` from `source` on every request of the kubeconfig user `userName` (client-node
 * asks its authenticators per request, so a refreshed token is used as soon as the source returns it).
 */
export function bearerTokenAuthenticator(userName: string, source: () => Promise<string>): Authenticator {
  return {
    isAuthProvider: (user) => user.name === userName,
    async applyAuthentication(_user, opts) {
      const token = await source();
      opts.headers = { ...opts.headers, Authorization: `Bearer ${token}` };
    },
  };
}
