import type { Cluster } from '../../core/model/cluster';
import type { KubeCluster } from '../../ports/kube-cluster';
import { kubeFor, type KubeSettings } from '../../adapters/kube/kube-for';

/**
 * The API server of each cluster, authenticated as its config items choose (token, EKS or kubeconfig context,
 * with its CA; docs/credentials.md), one client per cluster id.
 */
export function kubeFactory(settings: KubeSettings): (cluster: Cluster) => KubeCluster {
  const clients = new Map<string, KubeCluster>();
  return (cluster) => {
    let client = clients.get(cluster.id);
    if (!client) {
      client = kubeFor(cluster, settings);
      clients.set(cluster.id, client);
    }
    return client;
  };
}
