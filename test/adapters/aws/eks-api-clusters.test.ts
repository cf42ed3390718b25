import { DescribeClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import { EksApiClusters } from '../../../lambdas/adapters/aws/eks-api-clusters';
import { ClmError, ThrottledError } from '../../../lambdas/shared/errors';
import { sdkError } from './sdk-errors';

const eks = mockClient(EKSClient);
const clusters = () => new EksApiClusters(new EKSClient({ region: 'eu-central-1' }));

const CLUSTER = {
  name: 'teapot-euc1',
  status: 'ACTIVE' as const,
  endpoint: 'https://ABCDEF.gr7.eu-central-1.eks.amazonaws.com',
  certificateAuthority: { data: 'LS0tLS1CRUdJTg==' },
  identity: { oidc: { issuer: 'https://oidc.eks.eu-central-1.amazonaws.com/id/ABCDEF' } },
};

beforeEach(() => eks.reset());

describe('EksApiClusters', () => {
  it('reads endpoint, CA, issuer and the IPv4 service CIDR of an ipv4 cluster', async () => {
    // Arrange
    eks.on(DescribeClusterCommand, { name: 'teapot-euc1' }).resolves({
      cluster: {
        ...CLUSTER,
        kubernetesNetworkConfig: { ipFamily: 'ipv4', serviceIpv4Cidr: '10.5.0.0/16', serviceIpv6Cidr: 'fd00::/108' },
      },
    });

    // Act
    const plane = await clusters().describe('teapot-euc1');

    // Assert
    expect(plane).toEqual({
      name: 'teapot-euc1',
      status: 'ACTIVE',
      endpoint: CLUSTER.endpoint,
      certificateAuthorityData: 'LS0tLS1CRUdJTg==',
      oidcIssuerUrl: CLUSTER.identity.oidc.issuer,
      serviceCidr: '10.5.0.0/16',
    });
  });

  it('reads the IPv6 service CIDR of an ipv6 cluster', async () => {
    eks.on(DescribeClusterCommand).resolves({
      cluster: {
        ...CLUSTER,
        kubernetesNetworkConfig: {
          ipFamily: 'ipv6',
          serviceIpv4Cidr: '10.5.0.0/16',
          serviceIpv6Cidr: 'fd00:1:2::/108',
        },
      },
    });

    expect((await clusters().describe('teapot-euc1'))?.serviceCidr).toBe('fd00:1:2::/108');
  });

  it('finds none when EKS has no cluster of that name (ResourceNotFoundException)', async () => {
    eks
      .on(DescribeClusterCommand)
      .rejects(sdkError('ResourceNotFoundException', 'No cluster found for name: teapot-euc1.', 404));

    expect(await clusters().describe('teapot-euc1')).toBeUndefined();
  });

  it('reports throttling as retryable and other errors naming the call', async () => {
    eks
      .on(DescribeClusterCommand)
      .rejectsOnce(sdkError('ThrottlingException', 'Rate exceeded', 429))
      .rejects(sdkError('AccessDeniedException', 'not authorized', 403));

    await expect(clusters().describe('teapot-euc1')).rejects.toBeInstanceOf(ThrottledError);
    const denied = clusters().describe('teapot-euc1');
    await expect(denied).rejects.toBeInstanceOf(ClmError);
    await expect(denied).rejects.toThrow(/EKS DescribeCluster teapot-euc1/);
  });
});
