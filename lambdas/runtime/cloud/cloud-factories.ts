/**
 * The AWS side of a cluster for the Lambda tasks: stacks, node pools, values and template lookups in the cluster's
 * account and region (through the assumed role when `CLM_ASSUMED_ROLE` is set), and KMS in the task's own account.
 * Clients are built once per account and region and shared by every part. Each part is built from `kit`: the CLI
 * passes the full kit, a Lambda task the parts of its own ports (runtime/lambda/ports/shared-cloud.ts).
 */
import type { STSClient } from '@aws-sdk/client-sts';
import type { Cluster } from '../../core/model/cluster';
import { awsAccountId } from '../../core/model/cluster';
import type { HealthAlarms } from '../../ports/health-alarms';
import type { NodePoolBackend } from '../../ports/node-pool-backend';
import type { SecretDecrypter } from '../../ports/secrets';
import type { StackDeployer } from '../../ports/stack-deployer';
import type { CloudLookups } from '../../ports/template-engine';
import type { ValuesProvider } from '../../ports/values-provider';
import type { ClusterLeftovers } from '../../ports/cluster-leftovers';
import type { EksClusters } from '../../ports/eks-clusters';
import type { AccountQuotas } from '../../ports/account-quotas';
import type { NodeFilesStore } from '../../ports/node-files';
import { ConfigError } from '../../shared/errors';
import { kitAccountClients, kitAwsClients, roleArn } from '../../adapters/aws/aws-kit-clients';
import type { AwsClients } from '../../adapters/aws/aws-kit-clients';
import { awsClusterPortsFactory, clmBucketName } from '../../adapters/aws/aws-cluster-ports';
import { fromKit, type AwsKit } from '../../adapters/aws/aws-kit';
import type { LambdaEnvironment } from '../lambda/environment';

export interface CloudFactories {
  readonly stacks: (cluster: Cluster) => StackDeployer;
  readonly pools: (cluster: Cluster) => NodePoolBackend;
  readonly values: (cluster: Cluster) => ValuesProvider;
  readonly alarms: (cluster: Cluster) => HealthAlarms;
  /** Decommission's cleanup of what the cluster left outside its stacks. */
  readonly leftovers: (cluster: Cluster) => ClusterLeftovers;
  /** EKS DescribeCluster in the cluster's account and region. */
  readonly eks: (cluster: Cluster) => EksClusters;
  /** The files bundles nodes download, in the cluster account's S3 and KMS. */
  readonly nodeFiles: (cluster: Cluster) => NodeFilesStore;
  /** The account's On-Demand vCPU quotas (Service Quotas) and their use (EC2): rehearsals read them. */
  readonly quotas: (cluster: Cluster) => AccountQuotas;
  /** Template lookups by account id and region (the template engine knows the cluster only from its context). */
  readonly lookupsFor: (accountId: string, region: string) => CloudLookups;
  /** `aws:kms:` config items, decrypted with the task's own identity and region (CLM §10.5). */
  readonly secrets: () => SecretDecrypter;
  /** STS acting in the cluster's account and region (the assumed role there): EKS tokens are signed with it. */
  readonly stsFor: (cluster: Cluster) => STSClient;
}

/** What the cloud ports need of the environment (the CLI passes its flags in the same shape). */
export type CloudSettings = Pick<
  LambdaEnvironment,
  'region' | 'endpoint' | 'assumedRole' | 'stackRoleArn' | 'externalId' | 'stackRoleName'
>;

/**
 * @param kit the AWS clients and adapters loaded (read when a part is first used, so parts may be loaded later)
 * @param instrument applied to every SDK client (the Lambda runtime's X-Ray tracing).
 */
export function cloudFactories(
  env: CloudSettings,
  kit: AwsKit,
  instrument?: <C extends object>(client: C) => C,
): CloudFactories {
  const traced = instrument ? { instrument } : {};
  const clients = new Map<string, AwsClients>();
  const clientsFor = (accountId: string, region: string): AwsClients => {
    const key = `${accountId}/${region}`;
    const { endpoint, assumedRole, externalId } = env;
    if (!clients.has(key))
      clients.set(key, kitAccountClients(kit, { accountId, region, endpoint, assumedRole, externalId, ...traced }));
    return clients.get(key)!;
  };
  // Validates infrastructure_account and caches the parts per account and region.
  const clusterPorts = awsClusterPortsFactory({ kit, createClients: clientsFor, templateBucket: clmBucketName });

  const stackDeployers = new Map<string, StackDeployer>();
  const lookups = new Map<string, CloudLookups>();
  return {
    stacks(cluster) {
      clusterPorts(cluster);
      const accountId = awsAccountId(cluster.infrastructureAccount);
      const key = `${accountId}/${cluster.region}`;
      let deployer = stackDeployers.get(key);
      if (!deployer) {
        deployer = stackDeployer(kit, clientsFor(accountId, cluster.region), accountId, env);
        stackDeployers.set(key, deployer);
      }
      return deployer;
    },
    pools: (cluster) => clusterPorts(cluster).pools,
    values: (cluster) => clusterPorts(cluster).values,
    alarms: (cluster) => clusterPorts(cluster).alarms,
    leftovers: (cluster) => clusterPorts(cluster).leftovers,
    eks: (cluster) => clusterPorts(cluster).eks,
    nodeFiles: (cluster) => clusterPorts(cluster).nodeFiles,
    quotas: (cluster) => clusterPorts(cluster).quotas,
    lookupsFor(accountId, region) {
      if (!/^\d{12}$/.test(accountId))
        throw new ConfigError(`amiID/instanceType lookups need an AWS account id, got "${accountId}"`);
      const key = `${accountId}/${region}`;
      let found = lookups.get(key);
      if (!found) {
        found = new (fromKit(kit, 'Ec2CloudLookups'))(clientsFor(accountId, region).ec2);
        lookups.set(key, found);
      }
      return found;
    },
    stsFor: (cluster) => clientsFor(awsAccountId(cluster.infrastructureAccount), cluster.region).sts,
    secrets: () =>
      new (fromKit(kit, 'KmsSecretDecrypter'))(
        kitAwsClients(kit, { region: env.region, endpoint: env.endpoint, ...traced }).kms,
      ),
  };
}

/** CloudFormation in one account and region, templates staged in CLM's bucket there. */
function stackDeployer(kit: AwsKit, own: AwsClients, accountId: string, env: CloudSettings): StackDeployer {
  const templateStore = new (fromKit(kit, 'S3ArtifactStore'))(own.s3, {
    bucket: clmBucketName(accountId, own.region),
    region: own.region,
    endpoint: own.endpoint,
    createBucketIfMissing: true,
  });
  // Cross-account: the bounded stack role of that account (ClmClusterAccess); same-account: this account's.
  const stackRole = env.stackRoleName ? roleArn(accountId, env.stackRoleName) : env.stackRoleArn;
  return new (fromKit(kit, 'CloudFormationStackDeployer'))(own.cloudFormation, {
    templateStore,
    ...(stackRole ? { roleArn: stackRole } : {}),
  });
}
