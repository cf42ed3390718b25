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
import type { KubeConfig } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { kubeAuthConfig } from '../../core/kube/kube-auth-config';
import type { Cluster } from '../../core/model/cluster';
import type { KubeCluster } from '../../ports/kube-cluster';
import { ClientNodeKubeCluster } from './client-node-kube-cluster';
import { kubeconfigForCluster } from './kubeconfig-context';
import { missing, serverConnection, type KubeSettings } from './kube-server-for';
import { kubeServerTransport, type KubeServerConnection } from './kube-server-transport';
import { RestKubeCluster } from './rest-kube-cluster';

export { SECRET_TOKEN_TTL_MS, tokenFromSecret, type KubeSettings } from './kube-server-for';

/** The cluster's API, authenticated per its config items; bad items fail here, naming the cluster and the item. */
export function kubeFor(cluster: Cluster, settings: KubeSettings = {}): KubeCluster {
  const auth = kubeAuthConfig(cluster, settings.defaultMode ?? (settings.kubeconfigPath ? 'kubeconfig' : 'token'));
  if (auth.mode !== 'kubeconfig') return serverConnection(cluster, auth, settings);
  if (!settings.kubeconfigPath) missing(cluster, 'kube_auth kubeconfig needs a kubeconfig file (--kubeconfig)');
  const kc = kubeconfigForCluster(settings.kubeconfigPath, cluster, auth);
  const plain = plainConnection(kc);
  // A context with just a token and a CA goes the way the Lambda tasks go; anything else through client-node.
  return plain ? new RestKubeCluster(kubeServerTransport(plain)) : new ClientNodeKubeCluster(kc);
}

/**
 * The chosen context as a server, a bearer token and a CA, when that is all it holds; undefined when its user
 * authenticates otherwise (client certificate, exec plugin, auth provider, basic auth, impersonation) or its cluster
 * needs a proxy or another TLS server name.
 */
function plainConnection(kc: KubeConfig): KubeServerConnection | undefined {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  if (!cluster || !user?.token || cluster.proxyUrl || cluster.tlsServerName) return undefined;
  const { certData, certFile, keyData, keyFile, exec, authProvider, username, password, impersonateUser } = user;
  if ([certData, certFile, keyData, keyFile, exec, authProvider, username, password, impersonateUser].some(Boolean))
    return undefined;
  const caData = cluster.caData ?? (cluster.caFile ? readFileSync(cluster.caFile).toString('base64') : undefined);
  return {
    server: cluster.server,
    token: user.token,
    ...(caData ? { caData } : {}),
    ...(cluster.skipTLSVerify ? { skipTLSVerify: true } : {}),
  };
}
