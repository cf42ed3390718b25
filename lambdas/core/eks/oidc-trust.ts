/**
 * The OIDC provider of a cluster and the IAM trust policy CLM offers templates as `Cluster.IAMRoleTrustRelationshipTemplate`
 * (reference/clm-behaviour.md §6.2 step 13, CLM's `InitOIDCProvider`): EC2 (Sid `CLMApplied`) and EKS Pod Identity
 * (`pods.eks.amazonaws.com`, AssumeRole and TagSession) may assume the role, and for every `ready` cluster of the same
 * account, in registry order, its worker role may assume it and its OIDC provider's service accounts may, through
 * AssumeRoleWithWebIdentity with `<provider>:sub` like `system:serviceaccount:${SERVICE_ACCOUNT}` (the template fills
 * in the service account). The JSON keeps CLM's key order, so a rendered role document is byte-for-byte CLM's.
 */
import { hostedZone } from '../values/hosted-zone';
import { awsAccountId, type AccountPeer, type Cluster } from '../model/cluster';
import { ConfigError } from '../../shared/errors';
import { EKS_ITEMS } from './eks-control-plane';

type OidcSubject = Pick<AccountPeer, 'id' | 'localId' | 'provider' | 'apiServerUrl' | 'oidcIssuerUrl'>;

/** zalando-eks: the EKS issuer without `https://`; zalando-aws: `<local_id>.<hosted zone of the API server URL>`. */
export function oidcProvider(cluster: OidcSubject): string {
  if (cluster.provider === 'zalando-eks') return cluster.oidcIssuerUrl.replace(/^https:\/\//, '');
  const zone = hostedZone(cluster.apiServerUrl);
  if (!zone)
    throw new ConfigError(
      `cannot derive the OIDC provider: no hosted zone in api_server_url "${cluster.apiServerUrl}"`,
      {
        location: { clusterId: cluster.id, field: 'api_server_url' },
      },
    );
  return `${cluster.localId}.${zone}`;
}

/** The cluster as one of its account's clusters. */
export function accountPeer(cluster: Cluster): AccountPeer {
  return {
    id: cluster.id,
    localId: cluster.localId,
    infrastructureAccount: cluster.infrastructureAccount,
    provider: cluster.provider,
    apiServerUrl: cluster.apiServerUrl,
    lifecycleStatus: cluster.lifecycleStatus,
    oidcIssuerUrl: cluster.configItems[EKS_ITEMS.oidcIssuerUrl] ?? '',
  };
}

/** The registry's clusters in the same account as `cluster`, in registry order. */
export function peersOf(cluster: Pick<Cluster, 'infrastructureAccount'>, all: readonly Cluster[]): AccountPeer[] {
  return all.filter((c) => c.infrastructureAccount === cluster.infrastructureAccount).map(accountPeer);
}

interface Statement {
  readonly Effect: 'Allow';
  readonly Principal: Readonly<Record<string, string>>;
  readonly Action: readonly string[];
  readonly Sid?: string;
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/**
 * `IAMRoleTrustRelationshipTemplate` for `cluster`: its account's clusters (`accountClusters`, the cluster itself
 * standing in for its own entry so the issuer the creation hook just read counts), or the cluster alone without them.
 */
export function trustRelationshipTemplate(cluster: Cluster): string {
  const self = accountPeer(cluster);
  const peers = (cluster.accountClusters ?? [self]).map((peer) => (peer.id === cluster.id ? self : peer));
  const statements: Statement[] = [
    { Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: ['sts:AssumeRole'], Sid: 'CLMApplied' },
    {
      Effect: 'Allow',
      Principal: { Service: 'pods.eks.amazonaws.com' },
      Action: ['sts:AssumeRole', 'sts:TagSession'],
    },
  ];
  for (const peer of peers) {
    if (peer.lifecycleStatus !== 'ready') continue;
    const account = awsAccountId(peer.infrastructureAccount);
    const provider = oidcProvider(peer);
    statements.push(
      {
        Effect: 'Allow',
        Principal: { AWS: `arn:aws:iam::${account}:role/${peer.localId}-worker` },
        Action: ['sts:AssumeRole'],
      },
      {
        Effect: 'Allow',
        Principal: { Federated: `arn:aws:iam::${account}:oidc-provider/${provider}` },
        Action: ['sts:AssumeRoleWithWebIdentity'],
        Condition: { StringLike: { [`${provider}:sub`]: 'system:serviceaccount:${SERVICE_ACCOUNT}' } },
      },
    );
  }
  return JSON.stringify({ Version: '2012-10-17', Statement: statements });
}
