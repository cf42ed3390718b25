import type { EksControlPlane } from '../core/eks/eks-control-plane';

export type { EksControlPlane } from '../core/eks/eks-control-plane';

/** EKS in a cluster's account and region (CLM's EKS creation hook and decommission, reference/clm-behaviour.md §6.1). */
export interface EksClusters {
  /**
   * DescribeCluster(name). Undefined when EKS has no cluster of that name (ResourceNotFoundException, "No cluster
   * found for name"); any other failure throws.
   */
  describe(name: string): Promise<EksControlPlane | undefined>;
}
