/**
 * `kube_auth: kubeconfig`: one kubeconfig file serves many clusters, each through its own context, chosen in this
 * order (the first that exists wins):
 *  1. the context named by the cluster's `kube_context` config item (an error if the file has none of that name);
 *  2. a context named as the cluster id;
 *  3. a context named as the cluster alias;
 *  4. the one context whose cluster's server is the cluster's `api_server_url` (trailing slashes and case of the
 *     host ignored; several such contexts are an error asking for `kube_context`).
 * The file's current-context is never used on its own: that is how every cluster used to end up on one API server.
 * The context's CA data is used unless the cluster has `kube_ca_data`, which wins. Its user may be a token, a client
 * certificate or an exec plugin (e.g. `aws eks get-token`), all as kubectl does them (client-node).
 */
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import type { Cluster } from '../../core/model/cluster';
import { ConfigError } from '../../shared/errors';

function normalized(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host.toLowerCase()}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url.replace(/\/+$/, '');
  }
}

function chooseContext(kc: KubeConfig, path: string, cluster: Cluster, explicit?: string): string {
  const names = kc.getContexts().map((c) => c.name);
  const where = { location: { clusterId: cluster.id, file: path } };
  if (explicit) {
    if (names.includes(explicit)) return explicit;
    throw new ConfigError(
      `kubeconfig has no context "${explicit}" (config item kube_context); known: ${names.join(', ') || 'none'}`,
      where,
    );
  }
  for (const candidate of [cluster.id, cluster.alias]) if (candidate && names.includes(candidate)) return candidate;
  const server = normalized(cluster.apiServerUrl);
  const byServer = kc
    .getContexts()
    .filter((c) => {
      const entry = kc.getCluster(c.cluster);
      return entry !== null && normalized(entry.server) === server;
    })
    .map((c) => c.name);
  if (byServer.length === 1) return byServer[0]!;
  if (byServer.length > 1)
    throw new ConfigError(
      `kubeconfig has several contexts for ${cluster.apiServerUrl} (${byServer.join(', ')}); choose one with the config item kube_context`,
      where,
    );
  throw new ConfigError(
    `kubeconfig has no context for this cluster: none named "${cluster.id}" or "${cluster.alias}", none with server ${cluster.apiServerUrl} (set the config item kube_context); known: ${names.join(', ') || 'none'}`,
    where,
  );
}

/** The kubeconfig at `path`, switched to the cluster's context, with `caData` (if given) as its cluster's CA. */
export function kubeconfigForCluster(
  path: string,
  cluster: Cluster,
  options: { context?: string; caData?: string },
): KubeConfig {
  const kc = new KubeConfig();
  try {
    kc.loadFromFile(path);
  } catch (error) {
    throw new ConfigError(`cannot read kubeconfig ${path}: ${(error as Error).message}`, { cause: error });
  }
  const name = chooseContext(kc, path, cluster, options.context);
  const context = kc.getContextObject(name)!;
  const entry = kc.getCluster(context.cluster);
  if (!entry)
    throw new ConfigError(`kubeconfig context "${name}" names cluster "${context.cluster}", which the file lacks`, {
      location: { clusterId: cluster.id, file: path },
    });
  const clusters = kc
    .getClusters()
    .map((c) => (c.name === entry.name && options.caData ? { ...c, caData: options.caData, caFile: undefined } : c));
  const chosen = new KubeConfig();
  chosen.loadFromOptions({ clusters, users: kc.getUsers(), contexts: kc.getContexts(), currentContext: name });
  return chosen;
}
