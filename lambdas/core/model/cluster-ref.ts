import { clusterName } from '../cloudformation/stack-names';
import type { ClusterRef } from '../../ports/node-pool-backend';
import type { Cluster } from './cluster';

/** What the node pool backend needs to find a cluster's pools: id, CloudFormation name, region, account. */
export function clusterRef(cluster: Cluster): ClusterRef {
  return {
    id: cluster.id,
    name: clusterName(cluster),
    region: cluster.region,
    infrastructureAccount: cluster.infrastructureAccount,
  };
}
