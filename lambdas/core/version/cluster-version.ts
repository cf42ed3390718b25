import type { Cluster } from '../model/cluster';
import { clusterHash } from './cluster-hash';

/** A cluster version, `<configVersion>#<clusterHash>` (CLM `api/cluster_version.go`). */
export interface ClusterVersion {
  /** The config sources' version: a commit SHA, `dir-<hash>`, or `name1=<id>;name2=<id>` for several sources; `;stack=<provider>/<stack>/<k8s>@<vN>` appended for a cluster pinning a cluster stack. */
  readonly configVersion: string;
  readonly clusterHash: string;
}

/** The version a cluster should be at: the config version and the cluster's own hash. */
export function targetVersion(configVersion: string, cluster: Cluster): string {
  return formatVersion({ configVersion, clusterHash: clusterHash(cluster) });
}

export function formatVersion(version: ClusterVersion): string {
  return `${version.configVersion}#${version.clusterHash}`;
}

/**
 * Parse a version string. As in CLM, anything that does not split into exactly two parts on `#` (an empty
 * string, no `#`, several `#`) is the empty version: `undefined`.
 */
export function parseVersion(value: string): ClusterVersion | undefined {
  const parts = value.split('#');
  if (parts.length !== 2) return undefined;
  return { configVersion: parts[0], clusterHash: parts[1] };
}

/**
 * True when a cluster at `current` must be updated to reach `target`. An unparsable current version (a
 * new cluster, or garbage in the registry) always needs an update.
 */
export function needsUpdate(current: string, target: string): boolean {
  const parsedCurrent = parseVersion(current);
  const parsedTarget = parseVersion(target);
  if (!parsedCurrent) return true;
  if (!parsedTarget) return current !== target;
  return (
    parsedCurrent.configVersion !== parsedTarget.configVersion || parsedCurrent.clusterHash !== parsedTarget.clusterHash
  );
}
