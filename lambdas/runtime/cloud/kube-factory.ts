import type { Cluster } from '../../core/model/cluster';
import type { KubeCluster } from '../../ports/kube-cluster';
import type { KubeSettings } from '../../adapters/kube/kube-server-for';
import { perClusterConnection } from '../cluster-connection-key';

/**
 * The API server of each cluster, authenticated as its config items choose (token, EKS or kubeconfig context,
 * with its CA; docs/credentials.md): one client per cluster, built again when the cluster's API server URL, CA or
 * auth items change in the registry (a warm Lambda container outlives such a change). `connect` is kube-for.ts's
 * `kubeFor` where a kubeconfig file may be given (the CLI), kube-server-for.ts's `kubeServerFor` in Lambda (no
 * client-node in the bundle).
 */
export function kubeFactory(
  settings: KubeSettings,
  connect: (cluster: Cluster, settings: KubeSettings) => KubeCluster,
): (cluster: Cluster) => KubeCluster {
  return perClusterConnection((cluster) => connect(cluster, settings));
}
