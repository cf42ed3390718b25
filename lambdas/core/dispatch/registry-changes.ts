import type { Cluster } from '../model/cluster';
import { formatPath, validateWireCluster } from '../model/validate-wire-cluster';
import { clusterHash } from '../version/cluster-hash';
import type { ClusterFleetState } from './fleet-state';

/** What changed in a registry since the last poll, by cluster hash (CLM §3.3: status, alias, owner are not hashed). */
export interface RegistryDiff {
  readonly added: readonly string[];
  readonly modified: readonly string[];
  /** In the last poll, gone now (nothing to start: CLM decommissions only on lifecycle_status). */
  readonly removed: readonly string[];
  readonly unchanged: number;
  /** added and modified together: the pass's scope. */
  readonly changed: ReadonlySet<string>;
  /** States carrying the new hashes, to write back (removed ones are to be forgotten). */
  readonly states: readonly ClusterFleetState[];
}

/**
 * Diff each cluster's hash against the last one seen (the HTTP and YAML registries, polled on a schedule).
 * The first poll sees every cluster as added; the dispatcher then starts only those that need work.
 */
export function diffRegistry(
  clusters: readonly Cluster[],
  seen: ReadonlyMap<string, ClusterFleetState>,
  hashOf: (cluster: Cluster) => string = clusterHash,
): RegistryDiff {
  const added: string[] = [];
  const modified: string[] = [];
  const states: ClusterFleetState[] = [];
  const present = new Set<string>();
  for (const cluster of clusters) {
    present.add(cluster.id);
    const hash = hashOf(cluster);
    const state = seen.get(cluster.id);
    if (state?.lastSeenHash === hash) continue;
    (state?.lastSeenHash === undefined ? added : modified).push(cluster.id);
    states.push({ ...(state ?? { clusterId: cluster.id, revision: 0 }), lastSeenHash: hash });
  }
  const removed = [...seen.values()]
    .filter((state) => state.lastSeenHash !== undefined && !present.has(state.clusterId))
    .map((state) => state.clusterId);
  return {
    added,
    modified,
    removed,
    unchanged: clusters.length - added.length - modified.length,
    changed: new Set([...added, ...modified]),
    states,
  };
}

/** One change of our DynamoDB registry table, unmarshalled, registry items only (see the stream adapter). */
export interface RegistryChangeRecord {
  readonly eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  readonly clusterId: string;
  /** The item's cluster document (snake_case), without the table keys. */
  readonly newDocument?: Readonly<Record<string, unknown>>;
  readonly oldDocument?: Readonly<Record<string, unknown>>;
}

export interface RegistryStreamChanges {
  /** Clusters to dispatch, in stream order. */
  readonly changed: readonly string[];
  /** Clusters whose last record removed them. */
  readonly removed: readonly string[];
  /** Records that changed nothing hashed (our own status writes, alias or owner edits). */
  readonly ignored: number;
  /** Documents that are not valid clusters, `cluster <id>: <field>: <message>`. */
  readonly issues: readonly string[];
}

/**
 * The clusters a batch of registry stream records changed. A MODIFY counts only when the cluster hash
 * differs (so the status the dispatcher's own executions write never triggers another pass); a REMOVE is
 * reported but starts nothing (decommission only when lifecycle_status says so, as CLM). An invalid new
 * document counts as a change, so the pass that follows reports it.
 */
export function registryStreamChanges(records: readonly RegistryChangeRecord[]): RegistryStreamChanges {
  const last = new Map<string, RegistryChangeRecord['eventName']>();
  const changed = new Set<string>();
  const issues: string[] = [];
  let ignored = 0;
  for (const record of records) {
    last.set(record.clusterId, record.eventName);
    if (record.eventName === 'REMOVE') continue;
    const after = hashDocument(record.clusterId, record.newDocument, issues);
    const before = record.eventName === 'MODIFY' ? hashDocument(record.clusterId, record.oldDocument, []) : undefined;
    if (after !== undefined && before !== undefined && after === before) ignored++;
    else changed.add(record.clusterId);
  }
  const removed = [...last].filter(([, event]) => event === 'REMOVE').map(([id]) => id);
  for (const id of removed) changed.delete(id);
  return { changed: [...changed], removed, ignored, issues };
}

function hashDocument(
  clusterId: string,
  document: Readonly<Record<string, unknown>> | undefined,
  issues: string[],
): string | undefined {
  if (!document) return undefined;
  const result = validateWireCluster(document, 'lenient');
  if (!result.cluster) {
    for (const issue of result.issues)
      issues.push(`cluster ${clusterId}: ${formatPath(issue.path) || '(item)'}: ${issue.message}`);
    return undefined;
  }
  return clusterHash(result.cluster);
}

/** Cluster states to write, last writer wins per cluster (e.g. the poll's new hashes, then the pass's). */
export function mergeStates(...lists: readonly (readonly ClusterFleetState[])[]): ClusterFleetState[] {
  return [...new Map(lists.flat().map((state) => [state.clusterId, state])).values()];
}

/** The fleet's cluster states with some replaced (e.g. a poll's new hashes, before the pass is planned). */
export function withStates(
  states: ReadonlyMap<string, ClusterFleetState>,
  updates: readonly ClusterFleetState[],
): Map<string, ClusterFleetState> {
  const next = new Map(states);
  for (const state of updates) next.set(state.clusterId, state);
  return next;
}
