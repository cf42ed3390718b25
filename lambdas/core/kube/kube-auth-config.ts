/**
 * How CLM authenticates to a cluster's API server, chosen per cluster by config items in the registry (they win over
 * everything, like every config item; see docs/credentials.md):
 *
 * | item | meaning |
 * |---|---|
 * | `kube_auth` | `token` (a bearer token), `eks` (a token made from AWS credentials, as `aws eks get-token`) or `kubeconfig` (a context of `--kubeconfig`). Default: the process's default, `token` unless the CLI got `--kubeconfig`; for `zalando-eks` clusters `eks` (as CLM) unless that default is `kubeconfig`. |
 * | `kube_ca_data` | the API server's CA bundle, base64 of PEM (kubeconfig's `certificate-authority-data`); every mode. Required for `eks`. For `zalando-eks` clusters it defaults to `eks_certificate_authority_data`, the CA the EKS creation hook writes back (core/eks/eks-control-plane.ts). |
 * | `kube_token_secret` | `token` mode: Secrets Manager secret (name or ARN) holding this cluster's token; without it, CLM's `--token` / `clusterToken`. |
 * | `kube_context` | `kubeconfig` mode: the context to use (default: a context named as the cluster id, then as its alias, then the one whose server is the cluster's `api_server_url`). |
 * | `kube_eks_cluster_name` | `eks` mode: the EKS cluster name the token is for (default: the alias for `zalando-eks` clusters, the id otherwise, as CLM). |
 *
 * These items name where credentials are, never the credentials themselves: a token in a config item would be
 * stored in the registry and hashed into the cluster's version.
 */
import { clusterName } from '../cloudformation/stack-names';
import { EKS_ITEMS } from '../eks/eks-control-plane';
import type { Cluster } from '../model/cluster';
import { ConfigError } from '../../shared/errors';

export const KUBE_AUTH_MODES = ['token', 'eks', 'kubeconfig'] as const;
export type KubeAuthMode = (typeof KUBE_AUTH_MODES)[number];

export const KUBE_AUTH_ITEMS = {
  mode: 'kube_auth',
  caData: 'kube_ca_data',
  tokenSecret: 'kube_token_secret',
  context: 'kube_context',
  eksClusterName: 'kube_eks_cluster_name',
} as const;

export type KubeAuthConfig =
  | { readonly mode: 'token'; readonly caData?: string; readonly tokenSecret?: string }
  | { readonly mode: 'eks'; readonly caData: string; readonly eksClusterName: string }
  | { readonly mode: 'kubeconfig'; readonly caData?: string; readonly context?: string };

/** Which items each mode reads; any other kube_* item is a mistake worth reporting. */
const ITEMS_OF: Record<KubeAuthMode, readonly string[]> = {
  token: [KUBE_AUTH_ITEMS.caData, KUBE_AUTH_ITEMS.tokenSecret],
  eks: [KUBE_AUTH_ITEMS.caData, KUBE_AUTH_ITEMS.eksClusterName],
  kubeconfig: [KUBE_AUTH_ITEMS.caData, KUBE_AUTH_ITEMS.context],
};

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

function fail(cluster: Cluster, field: string, message: string): never {
  throw new ConfigError(message, { location: { clusterId: cluster.id, field: `config_items.${field}` } });
}

/**
 * `kube_ca_data` checked: base64 of at least one PEM certificate; for zalando-eks clusters without it, the CA EKS
 * reported (`eks_certificate_authority_data`, written by the creation hook).
 */
function caDataOf(cluster: Cluster): string | undefined {
  const own = cluster.configItems[KUBE_AUTH_ITEMS.caData]?.trim();
  const fromEks = cluster.provider === 'zalando-eks' ? cluster.configItems[EKS_ITEMS.caData]?.trim() : undefined;
  const value = own || fromEks;
  if (!value) return undefined;
  const decoded = /^[A-Za-z0-9+/=\s]+$/.test(value) ? Buffer.from(value, 'base64').toString('utf8') : '';
  if (!PEM_CERTIFICATE.test(decoded))
    fail(
      cluster,
      own ? KUBE_AUTH_ITEMS.caData : EKS_ITEMS.caData,
      'expected base64 of a PEM CA bundle (like kubeconfig certificate-authority-data)',
    );
  return value.replace(/\s+/g, '');
}

/** The CA a client of the cluster's API server trusts (`kube_ca_data`, for zalando-eks else the CA EKS reported). */
export function apiServerCaData(cluster: Cluster): string | undefined {
  return caDataOf(cluster);
}

/** The cluster's API server authentication, from its config items; `defaultMode` when it has no `kube_auth`. */
export function kubeAuthConfig(cluster: Cluster, defaultMode: KubeAuthMode): KubeAuthConfig {
  const items = cluster.configItems;
  const providerDefault = cluster.provider === 'zalando-eks' && defaultMode !== 'kubeconfig' ? 'eks' : defaultMode;
  const raw = items[KUBE_AUTH_ITEMS.mode]?.trim() || providerDefault;
  if (!(KUBE_AUTH_MODES as readonly string[]).includes(raw))
    fail(cluster, KUBE_AUTH_ITEMS.mode, `"${raw}" is not one of ${KUBE_AUTH_MODES.join(', ')}`);
  const mode = raw as KubeAuthMode;
  const misplaced = Object.values(KUBE_AUTH_ITEMS).filter(
    (item) => item !== KUBE_AUTH_ITEMS.mode && items[item] !== undefined && !ITEMS_OF[mode].includes(item),
  );
  if (misplaced.length > 0)
    fail(
      cluster,
      misplaced[0]!,
      `is not used with ${KUBE_AUTH_ITEMS.mode} ${mode} (it takes ${ITEMS_OF[mode].join(', ')})`,
    );
  const caData = caDataOf(cluster);
  const optional = (item: string): string | undefined => items[item]?.trim() || undefined;
  if (mode === 'eks') {
    if (!caData)
      fail(
        cluster,
        KUBE_AUTH_ITEMS.caData,
        cluster.provider === 'zalando-eks'
          ? `is required with kube_auth eks: the EKS API server has its own CA (the creation hook writes it as ${EKS_ITEMS.caData} once the main stack has created the EKS cluster)`
          : "is required with kube_auth eks: the EKS API server has its own CA (the cluster's certificateAuthority.data)",
      );
    return { mode, caData, eksClusterName: optional(KUBE_AUTH_ITEMS.eksClusterName) ?? clusterName(cluster) };
  }
  if (mode === 'kubeconfig') {
    const context = optional(KUBE_AUTH_ITEMS.context);
    return { mode, ...(caData ? { caData } : {}), ...(context ? { context } : {}) };
  }
  const tokenSecret = optional(KUBE_AUTH_ITEMS.tokenSecret);
  return { mode, ...(caData ? { caData } : {}), ...(tokenSecret ? { tokenSecret } : {}) };
}
