/**
 * The AWS half of ClusterPorts for real accounts: one set of clients and adapters per account and region, built on
 * first use and reused for every cluster there (the lookups' caches live as long as the process).
 */
import type { Cluster } from '../../core/model/cluster';
import { awsAccountId } from '../../core/model/cluster';
import type { ArtifactStore } from '../../ports/artifact-store';
import type { ClusterPorts } from '../../ports/ports';
import { ConfigError } from '../../shared/errors';
import { createAccountClients } from './aws-clients';
import type { AwsClients, AwsCredentials } from './aws-clients';
import { AsgNodePoolBackend } from './asg-node-pool-backend';
import { AwsValuesProvider } from './aws-values-provider';
import { CloudFormationStackDeployer } from './cloudformation-stack-deployer';
import { Ec2CloudLookups } from './ec2-cloud-lookups';
import { Ec2ClusterLeftovers } from './ec2-cluster-leftovers';
import { S3ArtifactStore } from './s3-artifact-store';

export type AwsClusterPorts = Omit<ClusterPorts, 'kube'>;

export interface AwsClusterPortsOptions {
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
  /** Test seam: build the clients of one account and region. @default createAccountClients */
  readonly createClients?: (accountId: string, region: string) => AwsClients;
}

/** CLM's per-account bucket name (§6.2 step 9). */
export function clmBucketName(accountId: string, region: string): string {
  return `cluster-lifecycle-manager-${accountId}-${region}`;
}

export function awsClusterPortsFactory(options: AwsClusterPortsOptions = {}): (cluster: Cluster) => AwsClusterPorts {
  const cache = new Map<string, AwsClusterPorts>();
  const createClients =
    options.createClients ??
    ((accountId: string, region: string) =>
      createAccountClients({
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
      const clients = createClients(accountId, cluster.region);
      const templateStore: ArtifactStore | undefined = options.templateBucket
        ? new S3ArtifactStore(clients.s3, {
            bucket: options.templateBucket(accountId, cluster.region),
            region: cluster.region,
            endpoint: clients.endpoint,
            createBucketIfMissing: true,
          })
        : undefined;
      const lookups = new Ec2CloudLookups(clients.ec2);
      ports = {
        stacks: new CloudFormationStackDeployer(clients.cloudFormation, { templateStore }),
        pools: new AsgNodePoolBackend(clients.autoScaling, clients.ec2),
        lookups,
        values: new AwsValuesProvider(clients.ec2, lookups),
        // Load balancers need the ELB SDK clients, which are not installed yet: they are reported as not checked.
        leftovers: new Ec2ClusterLeftovers(clients.ec2),
      };
      cache.set(key, ports);
    }
    return ports;
  };
}
