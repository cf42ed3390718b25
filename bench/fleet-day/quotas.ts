/**
 * The AWS quotas the fleet day is held against, per account and region unless said otherwise. docs/scale.md gives the
 * source of each and what to ask AWS to raise.
 */

/** Regions with Step Functions' larger StartExecution and StateTransition buckets. */
const LARGE_REGIONS = new Set(['us-east-1', 'us-west-2', 'eu-west-1']);

export interface Bucket {
  readonly burst: number;
  readonly perSecond: number;
}

/** Step Functions Standard: StartExecution and StateTransition token buckets. */
export function stepFunctionsQuotas(region: string): { readonly startExecution: Bucket; readonly transitions: Bucket } {
  return LARGE_REGIONS.has(region)
    ? { startExecution: { burst: 1300, perSecond: 300 }, transitions: { burst: 5000, perSecond: 1500 } }
    : { startExecution: { burst: 800, perSecond: 150 }, transitions: { burst: 800, perSecond: 500 } };
}

/** Lambda: concurrent executions per account and region (the default; new accounts start lower). */
export const LAMBDA_CONCURRENCY = 1000;

/** DynamoDB: write units per second a partition takes. */
export const DYNAMODB_PARTITION_WRITES = 1000;

/** EC2: the RunInstances resource bucket (instances) per account and region. */
export const RUN_INSTANCES: Bucket = { burst: 1000, perSecond: 2 };
