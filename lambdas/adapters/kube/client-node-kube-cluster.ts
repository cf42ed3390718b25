/**
 * KubeCluster through @kubernetes/client-node 1.4.0's KubeConfig and HTTP stack: a kubeconfig file and context
 * (client certificates, exec plugins), or a server and token as a kubeconfig of its own. The requests are
 * RestKubeCluster's (rest-kube-cluster.ts). The Lambda tasks never load this: they connect with
 * kube-server-transport.ts, which carries no client-node (kube-server-for.ts).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { clientNodeTransport } from './client-node-transport';
import { kubeConfigFrom, type KubeConnection } from './kube-connection';
import { RestKubeCluster } from './rest-kube-cluster';

export class ClientNodeKubeCluster extends RestKubeCluster {
  constructor(connection: KubeConnection | KubeConfig) {
    super(clientNodeTransport('makeApiClient' in connection ? connection : kubeConfigFrom(connection)));
  }
}
