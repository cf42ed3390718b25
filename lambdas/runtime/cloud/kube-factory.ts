import type { Cluster } from '../../core/model/cluster';
import type { KubeCluster } from '../../ports/kube-cluster';
import type { KubeSettings } from '../../adapters/kube/kube-server-for';

/**
 * The API server of each cluster, authenticated as its config items choose (token, EKS or kubeconfig context,
 * with its CA; docs/credentials.md), one client per cluster id. `connect` is kube-for.ts's `kubeFor` where a kubeconfig
 * file may be given (the CLI), kube-server-for.ts's `kubeServerFor` in Lambda (no client-node in the bundle).
 */
export function kubeFactory(
  settings: KubeSettings,
  connect: (cluster: Cluster, settings: KubeSettings) => KubeCluster,
): (cluster: Cluster) => KubeCluster {
  const clients = new Map<string, KubeCluster>();
  return (cluster) => {
    let client = clients.get(cluster.id);
    if (!client) {
      client = connect(cluster, settings);
      clients.set(cluster.id, client);
    }
    return client;
  };
}
