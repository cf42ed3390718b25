// EKS DescribeCluster against moto: the adapter the creation hook and decommission use (EksApiClusters) reads what
// moto's EKS reports and finds no cluster where EKS answers ResourceNotFoundException ("No cluster found for name").
// What moto lacks, so the simulator models it instead (test/sim/eks.test.ts, test/e2e/eks-cluster.test.ts): its
// CloudFormation does not create AWS::EKS::Cluster (the stack completes and no cluster exists), CreateCluster checks
// neither subnets nor role and is ACTIVE at once, the CA is random base64 (no PEM), the endpoint ends in "/", and no
// API server answers at it.
import { CreateClusterCommand } from '@aws-sdk/client-eks';
import { createAccountClients } from '../../../lambdas/adapters/aws/aws-clients';
import { EksApiClusters } from '../../../lambdas/adapters/aws/eks-api-clusters';
import { MOTO_ACCOUNT, MOTO_CREDENTIALS, REGION, motoEndpoint, resetMoto } from '../support/environment';

const endpoint = motoEndpoint();
const clients = () =>
  createAccountClients({ accountId: MOTO_ACCOUNT, region: REGION, endpoint, credentials: MOTO_CREDENTIALS });

beforeAll(() => resetMoto(endpoint));

describe('EksApiClusters on moto', () => {
  it('reads the endpoint, CA, OIDC issuer and IPv4 service CIDR of a cluster, and finds none of another name', async () => {
    // Arrange
    const { eks } = clients();
    await eks.send(
      new CreateClusterCommand({
        name: 'teapot-eks',
        roleArn: `arn:aws:iam::${MOTO_ACCOUNT}:role/teapot-eks-control-plane`,
        resourcesVpcConfig: { subnetIds: ['subnet-0a', 'subnet-0b'] },
        kubernetesNetworkConfig: { ipFamily: 'ipv4', serviceIpv4Cidr: '10.5.0.0/16' },
      }),
    );
    const adapter = new EksApiClusters(eks);

    // Act
    const plane = await adapter.describe('teapot-eks');
    const missing = await adapter.describe('no-such-cluster');

    // Assert
    expect(plane).toMatchObject({ name: 'teapot-eks', status: 'ACTIVE', serviceCidr: '10.5.0.0/16' });
    expect(plane!.endpoint).toMatch(/^https:\/\/\S+\.eu-central-1\.eks\.amazonaws\.com\/?$/);
    expect(plane!.certificateAuthorityData).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(plane!.oidcIssuerUrl).toMatch(/^https:\/\/oidc\.eks\.eu-central-1\.amazonaws\.com\/id\/\S+$/);
    expect(missing).toBeUndefined();
  });
});
