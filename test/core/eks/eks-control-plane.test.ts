import {
  changedEksItems,
  serviceCidrOf,
  withControlPlane,
  type EksControlPlane,
} from '../../../lambdas/core/eks/eks-control-plane';
import { testCluster, testPool } from '../../support/test-cluster';

const PLANE: EksControlPlane = {
  name: 'teapot',
  endpoint: 'https://E.gr7.eu-west-1.eks.amazonaws.com',
  certificateAuthorityData: 'Q0E=',
  oidcIssuerUrl: 'https://oidc.eks.eu-west-1.amazonaws.com/id/E',
  serviceCidr: '10.5.0.0/16',
  status: 'ACTIVE',
};

describe('the EKS control plane', () => {
  it('takes the service CIDR of the IP family, as CLM (anything but ipv4 reads the IPv6 one)', () => {
    const network = { serviceIpv4Cidr: '10.5.0.0/16', serviceIpv6Cidr: 'fd00::/108' };
    expect(serviceCidrOf({ ...network, ipFamily: 'ipv4' })).toBe('10.5.0.0/16');
    expect(serviceCidrOf({ ...network, ipFamily: 'ipv6' })).toBe('fd00::/108');
    expect(serviceCidrOf({ ipFamily: 'ipv6' })).toBe('');
  });

  it('names only the written items whose registry value differs', () => {
    expect(changedEksItems({}, PLANE)).toEqual({
      eks_endpoint: PLANE.endpoint,
      eks_certificate_authority_data: 'Q0E=',
      eks_oidc_issuer_url: PLANE.oidcIssuerUrl,
    });
    expect(
      changedEksItems(
        { eks_endpoint: PLANE.endpoint, eks_certificate_authority_data: 'x', eks_oidc_issuer_url: PLANE.oidcIssuerUrl },
        PLANE,
      ),
    ).toEqual({ eks_certificate_authority_data: 'Q0E=' });
  });

  it('gives the cluster the endpoint as API server URL and the items, service_cidr in memory; pools keep theirs', () => {
    const cluster = testCluster({
      apiServerUrl: 'https://teapot.example.org',
      configItems: { a: '1', service_cidr: '10.3.0.0/16' },
      nodePools: [testPool({ configItems: { b: '2' } })],
    });

    const seen = withControlPlane(cluster, PLANE);

    expect(seen.apiServerUrl).toBe(PLANE.endpoint);
    expect(seen.configItems).toEqual({
      a: '1',
      service_cidr: '10.5.0.0/16',
      eks_endpoint: PLANE.endpoint,
      eks_certificate_authority_data: 'Q0E=',
      eks_oidc_issuer_url: PLANE.oidcIssuerUrl,
    });
    expect(seen.nodePools[0]!.configItems).toEqual({ b: '2' });
    expect(withControlPlane(cluster, { ...PLANE, serviceCidr: '' }).configItems.service_cidr).toBe('10.3.0.0/16');
  });
});
