/**
 * What CLM learns from EKS about a `zalando-eks` cluster after its main stack is deployed (reference/clm-behaviour.md
 * §6.1, the creation hook), and how it changes the cluster for the rest of the run: DescribeCluster(alias) gives the
 * endpoint, the CA, the OIDC issuer and the service CIDR of the cluster's IP family. The endpoint, CA and issuer are
 * written back to the registry's config items (only those that changed); the API server URL becomes the endpoint and
 * `service_cidr` is set for the templates (in memory, as CLM). Decommission reads the same to reach the API server.
 */
import type { Cluster, ConfigItems } from '../model/cluster';

/** The config items CLM writes back for EKS clusters (§10.4). */
export const EKS_ITEMS = {
  endpoint: 'eks_endpoint',
  caData: 'eks_certificate_authority_data',
  oidcIssuerUrl: 'eks_oidc_issuer_url',
} as const;

/** Set in memory after the hook, for the templates (not written to the registry). */
export const SERVICE_CIDR_ITEM = 'service_cidr';

/** DescribeCluster's answer, reduced to what CLM reads. */
export interface EksControlPlane {
  /** The EKS cluster name (CLM: the alias). */
  readonly name: string;
  /** `https://<id>.<gr7>.<region>.eks.amazonaws.com`. */
  readonly endpoint: string;
  /** `certificateAuthority.data`: base64 of the PEM CA bundle. */
  readonly certificateAuthorityData: string;
  /** `identity.oidc.issuer`, `https://oidc.eks.<region>.amazonaws.com/id/<ID>`; "" when EKS reports none. */
  readonly oidcIssuerUrl: string;
  /** `kubernetesNetworkConfig.serviceIpv4Cidr`, or `serviceIpv6Cidr` when the IP family is ipv6; "" when unset. */
  readonly serviceCidr: string;
  /** `status`: CREATING, ACTIVE, DELETING, FAILED, UPDATING, PENDING. */
  readonly status: string;
}

/** The service CIDR CLM takes: IPv4 for the `ipv4` family, else IPv6 (as CLM, anything but ipv4 reads the IPv6 one). */
export function serviceCidrOf(network: {
  readonly ipFamily?: string;
  readonly serviceIpv4Cidr?: string;
  readonly serviceIpv6Cidr?: string;
}): string {
  return (network.ipFamily === 'ipv4' ? network.serviceIpv4Cidr : network.serviceIpv6Cidr) ?? '';
}

/** The three written items as EKS reports them. */
export function eksConfigItems(plane: EksControlPlane): Record<string, string> {
  return {
    [EKS_ITEMS.endpoint]: plane.endpoint,
    [EKS_ITEMS.caData]: plane.certificateAuthorityData,
    [EKS_ITEMS.oidcIssuerUrl]: plane.oidcIssuerUrl,
  };
}

/** The written items whose registry value differs from what EKS reports (CLM writes only those). */
export function changedEksItems(registryItems: ConfigItems, plane: EksControlPlane): Record<string, string> {
  return Object.fromEntries(
    Object.entries(eksConfigItems(plane)).filter(([key, value]) => registryItems[key] !== value),
  );
}

/**
 * The cluster as the rest of the run sees it after the hook: API server URL = the endpoint, the written items and
 * (when EKS reports one) `service_cidr` among its config items. Node pools keep their own items, as in CLM.
 */
export function withControlPlane(cluster: Cluster, plane: EksControlPlane): Cluster {
  const items = { ...cluster.configItems, ...controlPlaneItems(plane) };
  return { ...cluster, apiServerUrl: plane.endpoint || cluster.apiServerUrl, configItems: items };
}

/**
 * The items the control plane sets: the written three and, when EKS reports one, `service_cidr`. Rendering lays them
 * over the merged items before node pools inherit them, so the first run (items just written) renders what every
 * later run (items read from the registry) renders, and the second pass rolls nothing for them.
 */
export function controlPlaneItems(plane: EksControlPlane): Record<string, string> {
  return { ...eksConfigItems(plane), ...(plane.serviceCidr ? { [SERVICE_CIDR_ITEM]: plane.serviceCidr } : {}) };
}

/** Whether the answer is usable: an endpoint and a CA (a cluster still CREATING has neither). */
export function controlPlaneReady(plane: EksControlPlane): boolean {
  return plane.status === 'ACTIVE' && plane.endpoint !== '' && plane.certificateAuthorityData !== '';
}
