/**
 * The AWS half of ClusterPorts for real accounts: one set of clients and adapters per account and region, built on
 * first use and reused for every cluster there (the lookups' caches live as long as the process).
 */
import type { Cluster } from '../../core/model/cluster';
import { awsAccountId } from '../../core/model/cluster';
import type { ArtifactStore } from '../../ports/artifact-store';
import type { ClusterPorts } from '../../ports/ports';
import { ConfigError } from '../../shared/errors';
import { kitAccountClients } from './aws-kit-clients';
import type { AwsClients, AwsCredentials } from './aws-kit-clients';
import { fromKit, type AwsKit } from './aws-kit';

export type AwsClusterPorts = Omit<ClusterPorts, 'kube'>;

export interface AwsClusterPortsOptions {
  /** The clients and adapters loaded (aws-kit.ts); each port is built on first use from the parts it needs. */
  readonly kit: AwsKit;
  /** One endpoint for every service (moto). @default - `CLM_AWS_ENDPOINT`, else `AWS_ENDPOINT_URL`, else AWS */
  readonly endpoint?: string;
  /** @default - the SDK's default credential chain */
  readonly credentials?: AwsCredentials;
  /** CLM `--assumed-role`: the role name assumed in each cluster's account. @default - the credentials as they are */
  readonly assumedRole?: string;
  /** @default 5 */
  readonly maxAttempts?: number;
  /**
   * Bucket in the cluster's account for templates over 51,200 bytes (CloudFormation must be able to read it), e.g.
   * CLM's `cluster-lifecycle-manager-<account>-<region>`; created on first use if missing, as CLM does.
   * @default - such templates fail with a ConfigError
   */
  readonly templateBucket?: (accountId: string, region: string) => string;
  /** Test seam: build the clients of one account and region. @default kitAccountClients */
  readonly createClients?: (accountId: string, region: string) => AwsClients;
}

export { clmBucketName } from '../../core/render/files-bundle';

export function awsClusterPortsFactory(options: AwsClusterPortsOptions): (cluster: Cluster) => AwsClusterPorts {
  const { kit } = options;
  const cache = new Map<string, AwsClusterPorts>();
  const createClients =
    options.createClients ??
    ((accountId: string, region: string) =>
      kitAccountClients(kit, {
        accountId,
        region,
        endpoint: options.endpoint,
        credentials: options.credentials,
        assumedRole: options.assumedRole,
        maxAttempts: options.maxAttempts,
      }));

  return (cluster) => {
    const accountId = awsAccountId(cluster.infrastructureAccount);
    if (!cluster.infrastructureAccount.startsWith('aws:') || !/^\d{12}$/.test(accountId)) {
      throw new ConfigError(
        `infrastructure_account must look like aws:<12-digit account id>, got "${cluster.infrastructureAccount}"`,
        {
          location: { clusterId: cluster.id, field: 'infrastructure_account' },
        },
      );
    }
    const key = `${accountId}/${cluster.region}`;
    let ports = cache.get(key);
    if (!ports) {
      ports = accountPorts(kit, createClients(accountId, cluster.region), accountId, cluster.region, options);
      cache.set(key, ports);
    }
    return ports;
  };
}

/** The ports of one account and region, each adapter built on first use from the kit. */
function accountPorts(
  kit: AwsKit,
  clients: AwsClients,
  accountId: string,
  region: string,
  options: AwsClusterPortsOptions,
): AwsClusterPorts {
  const bucket = options.templateBucket;
  const built = new Map<string, unknown>();
  const once = <T>(name: string, make: () => T): T => {
    if (!built.has(name)) built.set(name, make());
    return built.get(name) as T;
  };
  const lookups = () => once('lookups', () => new (fromKit(kit, 'Ec2CloudLookups'))(clients.ec2));
  const values = () => ({ acm: clients.acm, kms: clients.kms });
  const templateStore = (): ArtifactStore | undefined =>
    bucket
      ? new (fromKit(kit, 'S3ArtifactStore'))(clients.s3, {
          bucket: bucket(accountId, region),
          region,
          endpoint: clients.endpoint,
          createBucketIfMissing: true,
        })
      : undefined;
  return {
    get stacks() {
      return once(
        'stacks',
        () =>
          new (fromKit(kit, 'CloudFormationStackDeployer'))(clients.cloudFormation, { templateStore: templateStore() }),
      );
    },
    get pools() {
      return once('pools', () => new (fromKit(kit, 'AsgNodePoolBackend'))(clients.autoScaling, clients.ec2));
    },
    get lookups() {
      return lookups();
    },
    get values() {
      return once('values', () => new (fromKit(kit, 'AwsValuesProvider'))(clients.ec2, lookups(), values()));
    },
    get nodeFiles() {
      return once('nodeFiles', () => new (fromKit(kit, 'S3NodeFilesStore'))(clients.s3, clients.kms, region));
    },
    get alarms() {
      return once('alarms', () => new (fromKit(kit, 'CloudWatchHealthAlarms'))(clients.cloudWatch));
    },
    get eks() {
      return once('eks', () => new (fromKit(kit, 'EksApiClusters'))(clients.eks));
    },
    get quotas() {
      return once('quotas', () => new (fromKit(kit, 'ServiceQuotasAccountQuotas'))(clients.serviceQuotas, clients.ec2));
    },
    get leftovers() {
      const elb = () => new (fromKit(kit, 'ElbLoadBalancers'))(clients.elb, clients.elbv2);
      return once('leftovers', () => new (fromKit(kit, 'Ec2ClusterLeftovers'))(clients.ec2, elb()));
    },
  };
}
