import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbFleetStore } from '../../../adapters/fleet/dynamodb-fleet-store';
import { fleetSettings } from '../../../core/dispatch/fleet-settings';
import { ConfigError } from '../../../shared/errors';
import type { LambdaEnvironment } from '../environment';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { TASK_ENV } from '../task-environment';
import { traced } from '../tracing';

/** The fleet settings of `CLM_FLEET_SETTINGS` (JSON), the defaults filling the rest. */
export function fleetSettingsFrom(env: LambdaEnvironment) {
  const text = env.optional(TASK_ENV.fleetSettings);
  if (!text) return fleetSettings();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ConfigError(`${TASK_ENV.fleetSettings} is not JSON; the CDK app sets it (infra/app-config.ts)`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(`${TASK_ENV.fleetSettings} must be a JSON object of settings (docs/fleet.md)`);
  }
  return fleetSettings(raw as Record<string, unknown>);
}

/** Port module of the fleet store: the progress table's FLEET, DELIVERY and SOURCE items (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return {
    fleet: () =>
      new DynamoDbFleetStore(
        traced(new DynamoDBClient({ region: env.region, ...(env.endpoint ? { endpoint: env.endpoint } : {}) })),
        env.required(TASK_ENV.tableName),
        fleetSettingsFrom(env),
      ),
  };
}
