import type { Cluster } from '../../core/model/cluster';
import type { KubeCluster } from '../../ports/kube-cluster';
import { ClientNodeKubeCluster } from '../../adapters/kube/client-node-kube-cluster';
import type { ClmTokens } from '../lambda/secret-tokens';

/** A cluster's API server at its registry `api_server_url`, with the cluster token (CLM's `--token`). */
export function kubeFactory(tokens: ClmTokens): (cluster: Cluster) => KubeCluster {
  return (cluster) =>
    new ClientNodeKubeCluster({
      server: cluster.apiServerUrl,
      ...(tokens.clusterToken ? { token: tokens.clusterToken } : {}),
    });
}
