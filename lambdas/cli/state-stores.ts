import { DEFAULT_FLEET_SETTINGS, launchLimitsOf, type FleetSettings } from '../core/dispatch/fleet-settings';
import type { LaunchBudget } from '../ports/launch-budget';
import { FileLaunchBudget } from '../adapters/progress/file-launch-budget';
import type { FleetStore } from '../ports/fleet-store';
import type { ProgressStore } from '../ports/progress-store';
import { openFileFleetStore } from '../adapters/fleet/file-fleet-store';
import { openFileProgressStore } from '../adapters/progress/file-progress-store';
import { LOCAL_STATE } from './state-option';
import { UsageError } from './io';
import { directoryFlag } from './directory-flag';
import { importCjs } from '../shared/import-cjs';
import type { Clocks } from '../core/status/lease-state';
import { simulatedClockNow } from '../sim/persistence';

const DYNAMODB = 'dynamodb://';
export { LOCAL_STATE, stateOption } from './state-option';

/** `--simulate` keeps its world in a directory: CLM_STATE (the deployed table) is not its default. */
export function simulatedStateOf(state: string, source: string | undefined): string {
  return source === 'env' && stateTable(state) ? LOCAL_STATE : state;
}

/** Where a command keeps progress, leases, controls and the fleet state: a local directory, or the deployed table. */
export interface StateStores {
  readonly progress: ProgressStore;
  /** Absent when the caller keeps its own (`fleet: false`). */
  readonly fleet?: FleetStore;
  /** The launch budget the rolls of each account and region share (a file under the directory, or the table's items). */
  readonly launches: LaunchBudget;
  /** `--state dynamodb://TABLE`: shared with the deployed system (writes are immediate; `save` does nothing). */
  readonly shared: boolean;
  /** Where it is, for messages (the directory, or `dynamodb://TABLE`). */
  readonly location: string;
  /** The time on each clock a lease here may be on (a directory of `--simulate` runs holds their world's clock). */
  clocks(): Clocks;
  save(): void;
}

/** The table of `--state dynamodb://TABLE`, or undefined for a directory. */
export function stateTable(state: string): string | undefined {
  if (!state.startsWith(DYNAMODB)) return undefined;
  const table = state.slice(DYNAMODB.length);
  if (!/^[A-Za-z0-9_.-]{3,255}$/.test(table))
    throw new UsageError(`--state ${state}: give the deployed progress table as dynamodb://TABLE`);
  return table;
}

/**
 * `--state DIR` (default `.clm-state`): files under the directory. `--state dynamodb://TABLE`: the deployed system's
 * table (ClmStateful's `TableName` output), so `clm status` shows deployed runs, and a laptop run and the service
 * share one lease per cluster: they never update one cluster at once. Credentials and region come from the
 * environment (`AWS_REGION`, `--region`).
 */
export async function openStateStores(
  state: string,
  options: {
    readonly cwd: string;
    readonly region?: string;
    readonly fleetSettings?: FleetSettings;
    /** false: the caller keeps the fleet state itself (`clm serve` and `clm dispatch`). @default true */
    readonly fleet?: boolean;
  },
): Promise<StateStores> {
  const withFleet = options.fleet !== false;
  const limits = launchLimitsOf(options.fleetSettings ?? DEFAULT_FLEET_SETTINGS);
  const table = stateTable(state);
  if (!table) {
    const dir = directoryFlag('--state', state, options.cwd);
    const progress = openFileProgressStore(dir);
    const fleet = withFleet ? openFileFleetStore(dir, options.fleetSettings) : undefined;
    return {
      progress: progress.store,
      launches: new FileLaunchBudget(dir, limits),
      ...(fleet ? { fleet: fleet.store } : {}),
      shared: false,
      location: dir,
      clocks: () => {
        const simulated = simulatedClockNow(dir);
        return { system: Date.now(), ...(simulated !== undefined ? { simulated } : {}) };
      },
      save: () => {
        progress.save();
        fleet?.save();
      },
    };
  }
  // Loaded only for the shared table: the SDK takes a while to import.
  const [{ DynamoDBClient }, { DynamoDbProgressStore }, { DynamoDbFleetStore }, { awsEndpointFromEnv }, launches] =
    await Promise.all([
      importCjs(import('@aws-sdk/client-dynamodb')),
      import('../adapters/progress/dynamodb-progress-store'),
      import('../adapters/fleet/dynamodb-fleet-store'),
      import('../adapters/aws/aws-clients'),
      import('../adapters/progress/dynamodb-launch-budget'),
    ]);
  const endpoint = awsEndpointFromEnv(process.env);
  const client = new DynamoDBClient({
    ...(options.region ? { region: options.region } : {}),
    ...(endpoint ? { endpoint } : {}),
  });
  return {
    progress: new DynamoDbProgressStore(client, table),
    launches: new launches.DynamoDbLaunchBudget(client, table, limits),
    ...(withFleet ? { fleet: new DynamoDbFleetStore(client, table, options.fleetSettings) } : {}),
    shared: true,
    location: state,
    clocks: () => ({ system: Date.now() }),
    save: () => undefined,
  };
}
