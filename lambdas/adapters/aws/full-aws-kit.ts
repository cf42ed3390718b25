/** Every AWS client class and adapter of aws-kit.ts, loaded at once: for the CLI against AWS and for the tests. */
import { ACMClient } from '@aws-sdk/client-acm';
import { AutoScalingClient } from '@aws-sdk/client-auto-scaling';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { EC2Client } from './ec2-api';
import { EKSClient } from '@aws-sdk/client-eks';
import { ElasticLoadBalancingClient } from '@aws-sdk/client-elastic-load-balancing';
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
import { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { STSClient } from '@aws-sdk/client-sts';
import { AsgNodePoolBackend } from './asg-node-pool-backend';
import type { AwsKit } from './aws-kit';
import { AwsValuesProvider } from './aws-values-provider';
import { CloudFormationStackDeployer } from './cloudformation-stack-deployer';
import { CloudWatchHealthAlarms } from './cloudwatch-health-alarms';
import { Ec2CloudLookups } from './ec2-cloud-lookups';
import { Ec2ClusterLeftovers } from './ec2-cluster-leftovers';
import { EksApiClusters } from './eks-api-clusters';
import { ElbLoadBalancers } from './elb-load-balancers';
import { KmsSecretDecrypter } from './kms-secret-decrypter';
import { S3ArtifactStore } from './s3-artifact-store';
import { S3NodeFilesStore } from './s3-node-files-store';
import { ServiceQuotasAccountQuotas } from './service-quotas';

export const FULL_AWS_KIT: Readonly<Required<AwsKit>> = {
  STSClient,
  CloudFormationClient,
  AutoScalingClient,
  EC2Client,
  EKSClient,
  ElasticLoadBalancingClient,
  ElasticLoadBalancingV2Client,
  S3Client,
  KMSClient,
  CloudWatchClient,
  ACMClient,
  ServiceQuotasClient,
  CloudFormationStackDeployer,
  S3ArtifactStore,
  AsgNodePoolBackend,
  Ec2CloudLookups,
  AwsValuesProvider,
  KmsSecretDecrypter,
  CloudWatchHealthAlarms,
  Ec2ClusterLeftovers,
  ElbLoadBalancers,
  EksApiClusters,
  S3NodeFilesStore,
  ServiceQuotasAccountQuotas,
};
