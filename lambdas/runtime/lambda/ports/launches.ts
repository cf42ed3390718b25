import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbLaunchBudget } from '../../../adapters/progress/dynamodb-launch-budget';
import { launchLimitsOf } from '../../../core/dispatch/fleet-settings';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { TASK_ENV } from '../task-environment';
import { traced } from '../tracing';
import { fleetSettingsFrom } from './fleet';

/** Port module of the launch budget: LAUNCH# items of the progress table, limits from `CLM_FLEET_SETTINGS`. */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return {
    launches: () =>
      new DynamoDbLaunchBudget(
        traced(new DynamoDBClient({ region: env.region, ...(env.endpoint ? { endpoint: env.endpoint } : {}) })),
        env.required(TASK_ENV.tableName),
        launchLimitsOf(fleetSettingsFrom(env)),
      ),
  };
}
