import { CfnOutput, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { FLEET_PAGE_PREFIX } from '../../lambdas/core/fleet-page/fleet-page-object';
import { acknowledge } from '../nag';

export interface ClmStatefulStackProps extends StackProps {
  /**
   * How long superseded artefact versions stay in the bucket.
   * @default Duration.days(30)
   */
  readonly artifactNoncurrentRetention?: Duration;
}

/**
 * What must survive a redeploy or a deleted workflow stack: the progress table (leases, runs, status, deliveries)
 * and the artefact bucket. Both are retained on stack deletion.
 */
export class ClmStatefulStack extends Stack {
  public readonly table: Table;
  public readonly artifactBucket: Bucket;

  constructor(scope: Construct, id: string, props: ClmStatefulStackProps = {}) {
    super(scope, id, props);
    // Items and key names: DESIGN.md §4, lambdas/ports/progress-store.ts. TTL on `ttl` expires webhook deliveries.
    // The stream carries the registry's changes when the registry is this table (the RegistryChanged trigger
    // filters it to registry items; reading a stream is free, and nothing reads it otherwise).
    this.table = new Table(this, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      timeToLiveAttribute: 'ttl',
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.artifactBucket = new Bucket(this, 'Artifacts', {
      encryption: BucketEncryption.S3_MANAGED,
      versioned: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        {
          id: 'expire-superseded-artifacts',
          noncurrentVersionExpiration: props.artifactNoncurrentRetention ?? Duration.days(30),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
        // The fleet page is rewritten on every dispatcher pass: its superseded versions are of no use for long.
        {
          id: 'expire-superseded-fleet-pages',
          prefix: FLEET_PAGE_PREFIX,
          noncurrentVersionExpiration: Duration.days(1),
        },
      ],
    });
    // `clm fleet-page --bucket` (and `clm provision --bucket`) name this bucket.
    new CfnOutput(this, 'ArtifactBucketName', { value: this.artifactBucket.bucketName });
    acknowledge(
      this.artifactBucket,
      'AwsSolutions-S1',
      'Only the task functions write here (content-addressed renders, versioned); who did what is in the Step Functions and Lambda logs. Server access logs would need a second bucket for no new information.',
    );
  }
}
