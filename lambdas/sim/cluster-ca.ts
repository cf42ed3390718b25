import { apiServerCaData } from '../core/kube/kube-auth-config';
import type { Cluster } from '../core/model/cluster';

/** The CA the cluster's clients trust; a malformed item is no CA (every call then fails TLS verification). */
export function optionalCaData(cluster: Cluster): { caData?: string } {
  try {
    const caData = apiServerCaData(cluster);
    return caData ? { caData } : {};
  } catch {
    return {};
  }
}
