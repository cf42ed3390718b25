import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { TASK_ENV } from '../task-environment';
import type { Clock } from '../../../ports/clock';
import { systemClock } from '../../../ports/clock';
import type { ProgressStore } from '../../../ports/progress-store';
import { DynamoDbProgressStore } from '../../../adapters/progress/dynamodb-progress-store';
import type { LambdaEnvironment } from '../environment';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { traced } from '../tracing';

export interface StoreFactories {
  readonly progress: () => ProgressStore;
  readonly clock: () => Clock;
}

/** The task's progress, in the table of its own account and region, and the clock (artefacts: artifacts.ts). */
export function storeFactories(env: LambdaEnvironment): StoreFactories {
  const endpoint = env.endpoint ? { endpoint: env.endpoint } : {};
  return {
    progress: () =>
      new DynamoDbProgressStore(
        traced(new DynamoDBClient({ region: env.region, ...endpoint })),
        env.required(TASK_ENV.tableName),
      ),
    clock: () => systemClock,
  };
}

/** Port module of progress and clock (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return storeFactories(env);
}
