import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { TASK_ENV } from '../task-environment';
import type { ArtifactStore } from '../../../ports/artifact-store';
import type { Clock } from '../../../ports/clock';
import { systemClock } from '../../../ports/clock';
import type { ProgressStore } from '../../../ports/progress-store';
import { S3ArtifactStore } from '../../../adapters/aws/s3-artifact-store';
import { DynamoDbProgressStore } from '../../../adapters/progress/dynamodb-progress-store';
import type { LambdaEnvironment } from '../environment';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { traced } from '../tracing';

export interface StoreFactories {
  readonly progress: () => ProgressStore;
  readonly artifacts: () => ArtifactStore;
  readonly clock: () => Clock;
}

/** The task's own stores, in its own account and region: progress in the table, artefacts in the bucket. */
export function storeFactories(env: LambdaEnvironment): StoreFactories {
  const endpoint = env.endpoint ? { endpoint: env.endpoint } : {};
  return {
    progress: () =>
      new DynamoDbProgressStore(
        traced(new DynamoDBClient({ region: env.region, ...endpoint })),
        env.required(TASK_ENV.tableName),
      ),
    artifacts: () =>
      new S3ArtifactStore(
        // Path-style URLs: emulators do not serve virtual-hosted bucket names.
        traced(new S3Client({ region: env.region, ...endpoint, ...(env.endpoint ? { forcePathStyle: true } : {}) })),
        { bucket: env.required(TASK_ENV.artifactBucket), region: env.region, ...endpoint },
      ),
    clock: () => systemClock,
  };
}

/** Port module of progress, artifacts and clock (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return storeFactories(env);
}
