/**
 * List prices the benches turn measured counts into dollars with (us-east-1 and eu-central-1, November 2026):
 * Step Functions Standard per state transition, Lambda on arm64 per GB-second and per request, EventBridge Scheduler
 * per invocation, DynamoDB on-demand per read and write request unit.
 */
import type { RunFigures } from './simulated-session';

export const USD_PER_TRANSITION = 0.000025;
export const USD_PER_GB_SECOND = 0.0000133334;
export const USD_PER_LAMBDA_REQUEST = 0.0000002;
export const USD_PER_SCHEDULER_INVOCATION = 0.000001;
export const USD_PER_READ_REQUEST_UNIT = 0.000000125;
export const USD_PER_WRITE_REQUEST_UNIT = 0.000000625;

/** What one run costs: its state transitions and its task invocations' Lambda use (DynamoDB and AWS APIs aside). */
export function runCost(run: RunFigures): { usd: number; note: string } {
  const transitions = run.transitions * USD_PER_TRANSITION;
  const lambda = run.lambda.gbSeconds * USD_PER_GB_SECOND + run.lambda.invocations * USD_PER_LAMBDA_REQUEST;
  return {
    usd: transitions + lambda,
    note: `${run.transitions} transitions ${usd(transitions)} + ${run.lambda.invocations} invocations, ${Math.round(run.lambda.gbSeconds)} GB-s ${usd(lambda)}`,
  };
}

export const usd = (n: number): string => `$${n.toFixed(4)}`;

/** Dollars as a bench figure: in US cents, so the table's two decimals still show a fraction of a cent. */
export const CENTS = 'US cents';
export const cents = (dollars: number): number => dollars * 100;

/** What a fleet pass is assumed to call beyond its measured CPU (DispatchFleet, tasks/fleet/fleet-pass.ts). */
export const FLEET_PASS = {
  /** DispatchFleet's memory. */
  gb: 1,
  /**
   * API calls of a pass with nothing to start: the registry, one version lookup per channel, the fleet items (a
   * paginated query), the clusters' controls (batches of 100), running executions, the halts: about 20 at 1,000.
   */
  apiCallsPer1000: 20,
  /** Read units per cluster: its fleet item and its controls, strongly consistent, each under 4 KB. */
  readUnitsPerCluster: 2,
} as const;

/**
 * A day of scheduled fleet passes over `clusters` clusters every `minutes` minutes when every cluster is up to date
 * (no execution starts, so no state transition): the scheduler's invocations, DispatchFleet's Lambda time (measured
 * CPU plus the API calls at `apiCallSeconds` each) and DynamoDB's read units.
 */
export function fleetDayCost(
  clusters: number,
  minutes: number,
  passCpuMs: number,
  apiCallSeconds: number,
): { usd: number; note: string } {
  const passes = (24 * 60) / minutes;
  const seconds = passCpuMs / 1000 + ((FLEET_PASS.apiCallsPer1000 * clusters) / 1000) * apiCallSeconds;
  const lambda = passes * (seconds * FLEET_PASS.gb * USD_PER_GB_SECOND + USD_PER_LAMBDA_REQUEST);
  const dynamo = passes * clusters * FLEET_PASS.readUnitsPerCluster * USD_PER_READ_REQUEST_UNIT;
  const scheduler = passes * USD_PER_SCHEDULER_INVOCATION;
  return {
    usd: lambda + dynamo + scheduler,
    note: `${passes} passes of ${seconds.toFixed(2)} s at ${FLEET_PASS.gb} GB: Lambda ${usd(lambda)}, DynamoDB ${usd(dynamo)} (${FLEET_PASS.readUnitsPerCluster} read units per cluster), scheduler ${usd(scheduler)}; no transitions (nothing to start)`,
  };
}
