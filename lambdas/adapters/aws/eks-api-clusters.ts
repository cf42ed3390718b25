import { DescribeClusterCommand, type EKSClient } from '@aws-sdk/client-eks';
import { serviceCidrOf, type EksControlPlane } from '../../core/eks/eks-control-plane';
import type { EksClusters } from '../../ports/eks-clusters';
import { awsErrorName, toClmError } from './aws-errors';

/** EksClusters over the EKS API (DescribeCluster) in one account and region. */
export class EksApiClusters implements EksClusters {
  constructor(private readonly eks: EKSClient) {}

  async describe(name: string): Promise<EksControlPlane | undefined> {
    try {
      const { cluster } = await this.eks.send(new DescribeClusterCommand({ name }));
      if (!cluster) return undefined;
      return {
        name: cluster.name ?? name,
        endpoint: cluster.endpoint ?? '',
        certificateAuthorityData: cluster.certificateAuthority?.data ?? '',
        oidcIssuerUrl: cluster.identity?.oidc?.issuer ?? '',
        serviceCidr: serviceCidrOf(cluster.kubernetesNetworkConfig ?? {}),
        status: cluster.status ?? '',
      };
    } catch (error) {
      if (awsErrorName(error) === 'ResourceNotFoundException') return undefined;
      throw toClmError(error, `EKS DescribeCluster ${name}`);
    }
  }
}
