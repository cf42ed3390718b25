import type { Cluster } from '../model/cluster';
import type { SkipReason } from './assess-cluster';
import { startsPerPass, type FleetSettings } from './fleet-settings';
import type { ClusterFleetState } from './fleet-state';

/** A cluster that may start, best first (plan-dispatch.ts). */
export interface StartCandidate {
  readonly cluster: Pick<Cluster, 'id' | 'infrastructureAccount' | 'region'>;
  readonly assessment: { readonly targetVersion: string };
}

/** Why a candidate waits for room. */
export type CapacityReason = Extract<SkipReason, 'capacity' | 'capacity-account' | 'capacity-region' | 'pacing'>;

/** The candidates to start now, and why each of the others waits (as the plan's skipped entries). */
export interface StartAllocation<C extends StartCandidate> {
  readonly chosen: readonly C[];
  readonly waiting: readonly {
    readonly clusterId: string;
    readonly reason: CapacityReason;
    readonly message: string;
    readonly targetVersion: string;
  }[];
}

/** Where the EC2 limits apply: one infrastructure account in one region. */
export function accountRegion(cluster: Pick<Cluster, 'infrastructureAccount' | 'region'>): string {
  return `${cluster.infrastructureAccount} ${cluster.region}`;
}

/**
 * Take candidates in order while the caps leave room: the fleet's (`maxConcurrent`, counting every running
 * cluster-update execution), then, of the executions the dispatcher recorded as running, the account and region's
 * (`maxConcurrentPerAccount`) and the region's (`maxConcurrentPerRegion`), and last this pass's share of the
 * StartExecution pace (`startsPerSecond` × 60 s). A candidate a full account or region holds back does not hold back
 * the candidates of other accounts behind it.
 */
export function allocateStarts<C extends StartCandidate>(
  candidates: readonly C[],
  context: {
    readonly runningFleetWide: number;
    readonly states: ReadonlyMap<string, ClusterFleetState>;
    readonly clusters: ReadonlyMap<string, Pick<Cluster, 'infrastructureAccount' | 'region'>>;
    readonly settings: FleetSettings;
  },
): StartAllocation<C> {
  const { settings } = context;
  const { perAccount, perRegion } = runningByPlace(context.states, context.clusters);
  const fleetRoom = Math.max(0, settings.maxConcurrent - context.runningFleetWide);
  const paceRoom = startsPerPass(settings);
  const chosen: C[] = [];
  const waiting: StartAllocation<C>['waiting'][number][] = [];
  for (const candidate of candidates) {
    const account = accountRegion(candidate.cluster);
    const region = candidate.cluster.region;
    const inAccount = perAccount.get(account) ?? 0;
    const inRegion = perRegion.get(region) ?? 0;
    const wait = (reason: CapacityReason, message: string) =>
      waiting.push({
        clusterId: candidate.cluster.id,
        reason,
        message,
        targetVersion: candidate.assessment.targetVersion,
      });
    if (chosen.length >= fleetRoom) {
      wait(
        'capacity',
        `${context.runningFleetWide} updates running across the fleet, the cap is ${settings.maxConcurrent} (maxConcurrent)`,
      );
    } else if (settings.maxConcurrentPerAccount !== undefined && inAccount >= settings.maxConcurrentPerAccount) {
      wait(
        'capacity-account',
        `${inAccount} updates running in account ${candidate.cluster.infrastructureAccount} in ${region}, the cap is ${settings.maxConcurrentPerAccount} (maxConcurrentPerAccount)`,
      );
    } else if (settings.maxConcurrentPerRegion !== undefined && inRegion >= settings.maxConcurrentPerRegion) {
      wait(
        'capacity-region',
        `${inRegion} updates running in ${region}, the cap is ${settings.maxConcurrentPerRegion} (maxConcurrentPerRegion)`,
      );
    } else if (chosen.length >= paceRoom) {
      wait(
        'pacing',
        `this pass starts ${paceRoom} executions (startsPerSecond ${settings.startsPerSecond} × 60 s); the next pass starts more`,
      );
    } else {
      chosen.push(candidate);
      bump(perAccount, account);
      bump(perRegion, region);
    }
  }
  return { chosen, waiting };
}

/** The executions recorded as running, counted by account and region and by region. */
function runningByPlace(
  states: ReadonlyMap<string, ClusterFleetState>,
  clusters: ReadonlyMap<string, Pick<Cluster, 'infrastructureAccount' | 'region'>>,
): { perAccount: Map<string, number>; perRegion: Map<string, number> } {
  const perAccount = new Map<string, number>();
  const perRegion = new Map<string, number>();
  for (const state of states.values()) {
    const cluster = clusters.get(state.clusterId);
    if (state.execution?.state !== 'running' || !cluster) continue;
    bump(perAccount, accountRegion(cluster));
    bump(perRegion, cluster.region);
  }
  return { perAccount, perRegion };
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
