import { DEFAULT_FLEET_SETTINGS, type FleetSettings } from '../../../lambdas/core/dispatch/fleet-settings';
import type { ClusterFleetState, ExecutionRecord } from '../../../lambdas/core/dispatch/fleet-state';
import type { FleetTarget } from '../../../lambdas/core/dispatch/fleet-targets';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { clusterHash } from '../../../lambdas/core/version/cluster-hash';
import { cluster } from '../render/fixtures';

export const COMMIT_A = 'a'.repeat(40);
export const COMMIT_B = 'b'.repeat(40);

export const settings = (overrides: Partial<FleetSettings> = {}): FleetSettings => ({
  ...DEFAULT_FLEET_SETTINGS,
  ...overrides,
});

/** A cluster of an environment, at `current` (a commit) unless it is new. */
export function fleetCluster(
  name: string,
  environment = 'test',
  overrides: Partial<Cluster> & { current?: string } = {},
): Cluster {
  const { current, ...rest } = overrides;
  const base = cluster({
    id: `aws:123456789012:eu-central-1:${name}`,
    alias: name,
    localId: name,
    environment,
    criticalityLevel: environment === 'production' ? 3 : environment === 'staging' ? 2 : 1,
    ...rest,
  });
  if (current === undefined) return base;
  return { ...base, status: { ...base.status, currentVersion: `${current}#${clusterHash(base)}` } };
}

export function target(c: Cluster, commit = COMMIT_B): FleetTarget {
  const hash = clusterHash(c);
  return { ok: true, clusterHash: hash, configVersion: commit, targetVersion: `${commit}#${hash}` };
}

export function targets(clusters: readonly Cluster[], commit = COMMIT_B): Map<string, FleetTarget> {
  return new Map(clusters.map((c) => [c.id, target(c, commit)]));
}

export function record(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return {
    action: 'update',
    targetVersion: `${COMMIT_B}#h`,
    previousVersion: `${COMMIT_A}#h`,
    name: 'update-x',
    attempt: 1,
    startedAt: 1000,
    state: 'running',
    failures: 0,
    ...overrides,
  };
}

export function state(clusterId: string, execution?: ExecutionRecord, extra: Partial<ClusterFleetState> = {}) {
  return { clusterId, revision: 1, ...(execution ? { execution } : {}), ...extra } satisfies ClusterFleetState;
}

export function targetVersionOf(c: Cluster, commit = COMMIT_B): string {
  return `${commit}#${clusterHash(c)}`;
}
