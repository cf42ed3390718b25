/**
 * The AWS quotas the fleet day is held against, per account and region unless said otherwise, AWS's defaults. docs/
 * scale.md gives the source of each and what to ask AWS to raise.
 */

/** Regions with Step Functions' larger StartExecution, StateTransition and DescribeExecution buckets. */
const LARGE_REGIONS = new Set(['us-east-1', 'us-west-2', 'eu-west-1']);

export interface Bucket {
  readonly burst: number;
  readonly perSecond: number;
}

/** Step Functions Standard: StartExecution, StateTransition, DescribeExecution and ListExecutions token buckets. */
export function stepFunctionsQuotas(region: string): {
  readonly startExecution: Bucket;
  readonly transitions: Bucket;
  readonly describeExecution: Bucket;
  readonly listExecutions: Bucket;
} {
  return LARGE_REGIONS.has(region)
    ? {
        startExecution: { burst: 1300, perSecond: 300 },
        transitions: { burst: 5000, perSecond: 1500 },
        describeExecution: { burst: 300, perSecond: 15 },
        listExecutions: { burst: 200, perSecond: 5 },
      }
    : {
        startExecution: { burst: 800, perSecond: 150 },
        transitions: { burst: 800, perSecond: 500 },
        describeExecution: { burst: 250, perSecond: 10 },
        listExecutions: { burst: 100, perSecond: 2 },
      };
}

/** DynamoDB: write units per second a partition takes. */
export const DYNAMODB_PARTITION_WRITES = 1000;

/** The quotas a fleet day may run with raised (the rest are AWS's defaults above). */
export interface RaisableQuotas {
  /** Lambda: concurrent executions per account and region (AWS's default; new accounts start lower). */
  readonly lambdaConcurrency: number;
  /** EC2: the RunInstances resource bucket (instances) per account and region. */
  readonly runInstances: Bucket;
}

export const DEFAULT_QUOTAS: RaisableQuotas = {
  lambdaConcurrency: 1000,
  runInstances: { burst: 1000, perSecond: 2 },
};
