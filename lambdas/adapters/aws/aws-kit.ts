/**
 * The AWS SDK clients and adapters a process has loaded, by part. A Lambda task loads the parts of its own ports only
 * (runtime/lambda/ports/), so a function that deploys stacks never requires the EC2, Auto Scaling or KMS clients:
 * every `import()` below is a module that a task not using the part neither loads nor, in its bundle, carries.
 * The CLI and the tests use the whole kit (full-aws-kit.ts).
 */
import type { ACMClient } from '@aws-sdk/client-acm';
import type { AutoScalingClient } from '@aws-sdk/client-auto-scaling';
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import type { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import type { EC2Client } from '@aws-sdk/client-ec2';
import type { EKSClient } from '@aws-sdk/client-eks';
import type { ElasticLoadBalancingClient } from '@aws-sdk/client-elastic-load-balancing';
import type { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { KMSClient } from '@aws-sdk/client-kms';
import type { S3Client } from '@aws-sdk/client-s3';
import type { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import type { STSClient } from '@aws-sdk/client-sts';
import type { AsgNodePoolBackend } from './asg-node-pool-backend';
import type { AwsValuesProvider } from './aws-values-provider';
import type { CloudFormationStackDeployer } from './cloudformation-stack-deployer';
import type { CloudWatchHealthAlarms } from './cloudwatch-health-alarms';
import type { Ec2ClusterLeftovers } from './ec2-cluster-leftovers';
import type { EksApiClusters } from './eks-api-clusters';
import type { Ec2CloudLookups } from './ec2-cloud-lookups';
import type { ElbLoadBalancers } from './elb-load-balancers';
import type { KmsSecretDecrypter } from './kms-secret-decrypter';
import type { S3ArtifactStore } from './s3-artifact-store';
import type { S3NodeFilesStore } from './s3-node-files-store';
import type { ServiceQuotasAccountQuotas } from './service-quotas';

export interface AwsKit {
  STSClient?: typeof STSClient;
  CloudFormationClient?: typeof CloudFormationClient;
  AutoScalingClient?: typeof AutoScalingClient;
  EC2Client?: typeof EC2Client;
  EKSClient?: typeof EKSClient;
  ElasticLoadBalancingClient?: typeof ElasticLoadBalancingClient;
  ElasticLoadBalancingV2Client?: typeof ElasticLoadBalancingV2Client;
  S3Client?: typeof S3Client;
  KMSClient?: typeof KMSClient;
  CloudWatchClient?: typeof CloudWatchClient;
  ACMClient?: typeof ACMClient;
  ServiceQuotasClient?: typeof ServiceQuotasClient;
  CloudFormationStackDeployer?: typeof CloudFormationStackDeployer;
  S3ArtifactStore?: typeof S3ArtifactStore;
  AsgNodePoolBackend?: typeof AsgNodePoolBackend;
  Ec2CloudLookups?: typeof Ec2CloudLookups;
  AwsValuesProvider?: typeof AwsValuesProvider;
  KmsSecretDecrypter?: typeof KmsSecretDecrypter;
  CloudWatchHealthAlarms?: typeof CloudWatchHealthAlarms;
  Ec2ClusterLeftovers?: typeof Ec2ClusterLeftovers;
  ElbLoadBalancers?: typeof ElbLoadBalancers;
  EksApiClusters?: typeof EksApiClusters;
  S3NodeFilesStore?: typeof S3NodeFilesStore;
  ServiceQuotasAccountQuotas?: typeof ServiceQuotasAccountQuotas;
}

/**
 * The parts, one loader each: a port module passes the loaders of its own port to loadAwsKit, and esbuild leaves
 * the others (and the SDK packages they import) out of its bundle. STS comes with every part acting in a cluster's
 * account (the account check and the assumed role); `secrets` decrypts with the task's own identity and needs none.
 */
export type AwsPart = () => Promise<AwsKit>;

/** CloudFormation stacks, templates staged in S3. */
export async function stacksPart(): Promise<AwsKit> {
  const [cfn, s3, sts, deployer, store] = await Promise.all([
    import('@aws-sdk/client-cloudformation'),
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/client-sts'),
    import('./cloudformation-stack-deployer'),
    import('./s3-artifact-store'),
  ]);
  return {
    CloudFormationClient: cfn.CloudFormationClient,
    S3Client: s3.S3Client,
    STSClient: sts.STSClient,
    CloudFormationStackDeployer: deployer.CloudFormationStackDeployer,
    S3ArtifactStore: store.S3ArtifactStore,
  };
}

/** Auto Scaling groups and their EC2 instances. */
export async function poolsPart(): Promise<AwsKit> {
  const [asg, ec2, sts, backend] = await Promise.all([
    import('@aws-sdk/client-auto-scaling'),
    import('./ec2-api'),
    import('@aws-sdk/client-sts'),
    import('./asg-node-pool-backend'),
  ]);
  return {
    AutoScalingClient: asg.AutoScalingClient,
    EC2Client: ec2.EC2Client,
    STSClient: sts.STSClient,
    AsgNodePoolBackend: backend.AsgNodePoolBackend,
  };
}

/** Template lookups (AMIs, instance types) in EC2. */
export async function lookupsPart(): Promise<AwsKit> {
  const [ec2, sts, lookups] = await Promise.all([
    import('./ec2-api'),
    import('@aws-sdk/client-sts'),
    import('./ec2-cloud-lookups'),
  ]);
  return { EC2Client: ec2.EC2Client, STSClient: sts.STSClient, Ec2CloudLookups: lookups.Ec2CloudLookups };
}

/**
 * Deploy-time values (subnets, VPC) from EC2, with the lookups; the load balancer's certificate from ACM, the etcd
 * stack's key alias from KMS.
 */
export async function valuesPart(): Promise<AwsKit> {
  const [lookups, values, acm, kms] = await Promise.all([
    lookupsPart(),
    import('./aws-values-provider'),
    import('@aws-sdk/client-acm'),
    import('@aws-sdk/client-kms'),
  ]);
  return {
    ...lookups,
    AwsValuesProvider: values.AwsValuesProvider,
    ACMClient: acm.ACMClient,
    KMSClient: kms.KMSClient,
  };
}

/** The files bundles nodes download: S3 and KMS of the cluster's account. */
export async function nodeFilesPart(): Promise<AwsKit> {
  const [s3, kms, sts, store] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/client-kms'),
    import('@aws-sdk/client-sts'),
    import('./s3-node-files-store'),
  ]);
  return {
    S3Client: s3.S3Client,
    KMSClient: kms.KMSClient,
    STSClient: sts.STSClient,
    S3NodeFilesStore: store.S3NodeFilesStore,
  };
}

/** `aws:kms:` config items. */
export async function secretsPart(): Promise<AwsKit> {
  const [kms, decrypter] = await Promise.all([import('@aws-sdk/client-kms'), import('./kms-secret-decrypter')]);
  return { KMSClient: kms.KMSClient, KmsSecretDecrypter: decrypter.KmsSecretDecrypter };
}

/** CloudWatch alarms: the roll's health gate (`update_health_alarm`). */
export async function alarmsPart(): Promise<AwsKit> {
  const [cw, sts, alarms] = await Promise.all([
    import('@aws-sdk/client-cloudwatch'),
    import('@aws-sdk/client-sts'),
    import('./cloudwatch-health-alarms'),
  ]);
  return {
    CloudWatchClient: cw.CloudWatchClient,
    STSClient: sts.STSClient,
    CloudWatchHealthAlarms: alarms.CloudWatchHealthAlarms,
  };
}

/**
 * Decommission's cleanup of what a cluster left outside its stacks (EC2: volumes, security groups, interfaces; ELB:
 * classic and v2 load balancers, target groups).
 */
export async function leftoversPart(): Promise<AwsKit> {
  const [ec2, elb, elbv2, sts, leftovers, loadBalancers] = await Promise.all([
    import('./ec2-api'),
    import('@aws-sdk/client-elastic-load-balancing'),
    import('@aws-sdk/client-elastic-load-balancing-v2'),
    import('@aws-sdk/client-sts'),
    import('./ec2-cluster-leftovers'),
    import('./elb-load-balancers'),
  ]);
  return {
    EC2Client: ec2.EC2Client,
    ElasticLoadBalancingClient: elb.ElasticLoadBalancingClient,
    ElasticLoadBalancingV2Client: elbv2.ElasticLoadBalancingV2Client,
    STSClient: sts.STSClient,
    Ec2ClusterLeftovers: leftovers.Ec2ClusterLeftovers,
    ElbLoadBalancers: loadBalancers.ElbLoadBalancers,
  };
}

/** EKS DescribeCluster: the control plane of a zalando-eks cluster (the creation hook, decommission). */
export async function eksPart(): Promise<AwsKit> {
  const [eks, sts, clusters] = await Promise.all([
    import('@aws-sdk/client-eks'),
    import('@aws-sdk/client-sts'),
    import('./eks-api-clusters'),
  ]);
  return { EKSClient: eks.EKSClient, STSClient: sts.STSClient, EksApiClusters: clusters.EksApiClusters };
}

/** The account's On-Demand vCPU quotas (Service Quotas) and the vCPUs its instances hold (EC2): rehearsals. */
export async function quotasPart(): Promise<AwsKit> {
  const [quotas, ec2, sts, adapter] = await Promise.all([
    import('@aws-sdk/client-service-quotas'),
    import('./ec2-api'),
    import('@aws-sdk/client-sts'),
    import('./service-quotas'),
  ]);
  return {
    ServiceQuotasClient: quotas.ServiceQuotasClient,
    EC2Client: ec2.EC2Client,
    STSClient: sts.STSClient,
    ServiceQuotasAccountQuotas: adapter.ServiceQuotasAccountQuotas,
  };
}

/** STS alone: EKS tokens signed in a cluster's account. */
export async function stsPart(): Promise<AwsKit> {
  return { STSClient: (await import('@aws-sdk/client-sts')).STSClient };
}

/** Every part (the CLI's whole kit, loaded on demand). */
export const ALL_AWS_PARTS: readonly AwsPart[] = [
  stacksPart,
  poolsPart,
  lookupsPart,
  valuesPart,
  secretsPart,
  alarmsPart,
  leftoversPart,
  nodeFilesPart,
  quotasPart,
  stsPart,
];

/** Load `parts` into `kit` (loading a part twice costs nothing: the modules are cached) and return it. */
export async function loadAwsKit(parts: readonly AwsPart[], kit: AwsKit = {}): Promise<AwsKit> {
  for (const loaded of await Promise.all(parts.map((part) => part()))) Object.assign(kit, loaded);
  return kit;
}

/** A member of the kit, or an error naming it: a port used without loading its part is a wiring bug. */
export function fromKit<K extends keyof AwsKit>(kit: AwsKit, key: K): NonNullable<AwsKit[K]> {
  const member = kit[key];
  if (!member) throw new Error(`${key} is not loaded: load the AWS part that uses it first (aws-kit.ts loadAwsKit)`);
  return member as NonNullable<AwsKit[K]>;
}
