import { oidcProvider, peersOf, trustRelationshipTemplate } from '../../../lambdas/core/eks/oidc-trust';
import { templateCluster } from '../../../lambdas/core/render/template-context';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { testCluster } from '../../support/test-cluster';

const ISSUER = 'https://oidc.eks.eu-central-1.amazonaws.com/id/11112222333344445555666677778888';
const EKS_PROVIDER = 'oidc.eks.eu-central-1.amazonaws.com/id/11112222333344445555666677778888';

const legacy = testCluster({
  id: 'aws:123456789012:eu-central-1:kube-1',
  provider: 'zalando-aws',
  localId: 'kube-1',
  infrastructureAccount: 'aws:123456789012',
  apiServerUrl: 'https://kube-1.example.zalan.do',
  lifecycleStatus: 'ready',
});
const eks = testCluster({
  id: 'aws:123456789012:eu-central-1:teapot-euc1',
  provider: 'zalando-eks',
  alias: 'teapot-euc1',
  localId: 'teapot-euc1',
  infrastructureAccount: 'aws:123456789012',
  apiServerUrl: 'https://teapot-euc1.example.zalan.do',
  configItems: { eks_oidc_issuer_url: ISSUER },
  lifecycleStatus: 'ready',
});
const decommissioned = testCluster({
  id: 'aws:123456789012:eu-central-1:old',
  localId: 'old',
  infrastructureAccount: 'aws:123456789012',
  lifecycleStatus: 'decommissioned',
});
const otherAccount = testCluster({
  id: 'aws:210987654321:eu-central-1:kube-9',
  localId: 'kube-9',
  infrastructureAccount: 'aws:210987654321',
  lifecycleStatus: 'ready',
});

/** The statements CLM's documented shape gives a ready cluster: its worker role, and its provider's web identity. */
const clusterStatements = (localId: string, provider: string) => [
  {
    Effect: 'Allow',
    Principal: { AWS: `arn:aws:iam::123456789012:role/${localId}-worker` },
    Action: ['sts:AssumeRole'],
  },
  {
    Effect: 'Allow',
    Principal: { Federated: `arn:aws:iam::123456789012:oidc-provider/${provider}` },
    Action: ['sts:AssumeRoleWithWebIdentity'],
    Condition: { StringLike: { [`${provider}:sub`]: 'system:serviceaccount:${SERVICE_ACCOUNT}' } },
  },
];
const expected = (...clusters: [string, string][]) =>
  JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      { Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: ['sts:AssumeRole'], Sid: 'CLMApplied' },
      {
        Effect: 'Allow',
        Principal: { Service: 'pods.eks.amazonaws.com' },
        Action: ['sts:AssumeRole', 'sts:TagSession'],
      },
      ...clusters.flatMap(([localId, provider]) => clusterStatements(localId, provider)),
    ],
  });
const inAccount = (cluster: Cluster, all: Cluster[]): Cluster => ({
  ...cluster,
  accountClusters: peersOf(cluster, all),
});

describe('OIDC provider and trust template (CLM InitOIDCProvider)', () => {
  it('names the OIDC provider: the EKS issuer without https://, else <local_id>.<hosted zone>', () => {
    expect(oidcProvider({ ...legacy, oidcIssuerUrl: '' })).toBe('kube-1.example.zalan.do');
    expect(oidcProvider({ ...eks, oidcIssuerUrl: ISSUER })).toBe(EKS_PROVIDER);
    expect(() => oidcProvider({ ...legacy, apiServerUrl: 'https://localhost', oidcIssuerUrl: '' })).toThrow(
      /no hosted zone in api_server_url/,
    );
  });

  it('trusts EC2, EKS Pod Identity and the cluster itself when it is ready, in CLM key order', () => {
    expect(trustRelationshipTemplate(inAccount(legacy, [legacy]))).toBe(
      expected(['kube-1', 'kube-1.example.zalan.do']),
    );
    expect(trustRelationshipTemplate(inAccount(eks, [eks]))).toBe(expected(['teapot-euc1', EKS_PROVIDER]));
  });

  it('renders the same document for both clusters of one account, in registry order, skipping clusters not ready and other accounts', () => {
    const all = [legacy, eks, decommissioned, otherAccount];
    const both = expected(['kube-1', 'kube-1.example.zalan.do'], ['teapot-euc1', EKS_PROVIDER]);

    expect(trustRelationshipTemplate(inAccount(legacy, all))).toBe(both);
    expect(trustRelationshipTemplate(inAccount(eks, all))).toBe(both);
  });

  it('gives templates Cluster.OIDCProvider and Cluster.IAMRoleTrustRelationshipTemplate', () => {
    const context = templateCluster(inAccount(eks, [legacy, eks]));

    expect(context.OIDCProvider).toBe(EKS_PROVIDER);
    expect(JSON.parse(context.IAMRoleTrustRelationshipTemplate).Statement).toHaveLength(6);
  });

  it('lists a cluster being created only once it is ready, with the issuer the creation hook just read', () => {
    const creating = { ...eks, lifecycleStatus: 'creating' as const, configItems: {} };
    const hooked = { ...creating, lifecycleStatus: 'ready' as const, configItems: { eks_oidc_issuer_url: ISSUER } };

    expect(trustRelationshipTemplate(inAccount(creating, [creating]))).toBe(expected());
    // The pinned peers still hold the item as the registry had it before the hook; the cluster's own view wins.
    expect(
      trustRelationshipTemplate({
        ...hooked,
        accountClusters: peersOf(creating, [{ ...creating, lifecycleStatus: 'ready' }]),
      }),
    ).toBe(expected(['teapot-euc1', EKS_PROVIDER]));
  });
});
