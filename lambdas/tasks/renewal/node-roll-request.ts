import type { ClusterUpdateInput } from '../../contracts/cluster-update';
import type { Cluster } from '../../core/model/cluster';
import { NODE_ROLL_HISTORY, type NodeRollRequest, type RunRecord } from '../../core/model/run';
import { describeDue, nodesDue } from '../../core/node-renewal/nodes-due';
import { renewalConfigured } from '../../core/node-renewal/renewal-settings';
import type { ClusterPorts, Ports } from '../../ports/ports';
import { withNodeCheckItems } from '../../core/node-renewal/node-check-items';

/**
 * The node roll a run carries (Prepare): a forced roll asked for (`clm roll --force`), kept from the unfinished run it
 * resumes (so a resumed forced roll keeps its time and never takes the nodes it brought up); or, when the cluster is
 * otherwise up to date, nodes due for repair or by age — one listing of its nodes, only where a pool asks for either
 * (its registry items over the node-check items the render of its version recorded: config-defaults.yaml's).
 */
export async function nodeRollRequest(
  input: Pick<ClusterUpdateInput, 'options' | 'trigger'>,
  cluster: Cluster,
  existing: RunRecord | undefined,
  upToDate: boolean,
  ports: Pick<Ports, 'progress'> & { forCluster(cluster: Cluster): Pick<ClusterPorts, 'kube'> },
  now: number,
): Promise<{ readonly request?: NodeRollRequest; readonly notes: readonly string[] }> {
  const asked = input.options.nodeRoll;
  const unfinished = existing && existing.completedAt === undefined ? existing : undefined;
  if (unfinished?.nodeRoll && (asked === undefined || asked.kind === unfinished.nodeRoll.kind))
    return { request: unfinished.nodeRoll, notes: [] };
  if (asked?.kind === 'force')
    return {
      request: {
        kind: 'force',
        ...(asked.pools?.length ? { pools: [...asked.pools] } : {}),
        ...(asked.reason ? { reason: asked.reason } : {}),
        requestedBy: asked.requestedBy,
        requestedAt: now,
      },
      notes: [],
    };
  if (!upToDate) return { notes: [] };
  // config-defaults.yaml's node-check items, as the render of the version it runs recorded them, under the registry's.
  const judged = withNodeCheckItems(cluster, (await ports.progress.getStatus(cluster.id))?.nodeChecks);
  if (!renewalConfigured(judged.configItems, judged.nodePools)) return { notes: [] };
  const found = nodesDue(judged, await ports.forCluster(cluster).kube.listNodes(), now);
  if (found.due.length === 0) return { notes: found.notes };
  const request: NodeRollRequest = {
    kind: 'renew',
    reason: describeDue(found.due),
    requestedBy: asked?.requestedBy ?? `${input.trigger} run`,
    requestedAt: now,
  };
  return { request, notes: found.notes };
}

/** The node rolls of the record a fresh run replaces, carried on (the newest last). */
export function nodeRollHistory(existing: RunRecord | undefined): Pick<RunRecord, 'nodeRollHistory'> {
  if (!existing) return {};
  const done = existing.nodeRoll
    ? [{ ...existing.nodeRoll, ...(existing.completedAt !== undefined ? { completedAt: existing.completedAt } : {}) }]
    : [];
  const history = [...(existing.nodeRollHistory ?? []), ...done].slice(-NODE_ROLL_HISTORY);
  return history.length ? { nodeRollHistory: history } : {};
}

/** `; forced roll of pools default-worker (by alice@host: CVE-2026-1234)`, for Prepare's message. */
export function describeNodeRoll(request: NodeRollRequest | undefined): string {
  if (!request) return '';
  if (request.kind === 'renew') return `; renewing nodes (${request.reason ?? 'due'}; by ${request.requestedBy})`;
  const pools = request.pools?.length ? `pools ${request.pools.join(', ')}` : 'every pool';
  return `; forced roll of ${pools} (by ${request.requestedBy}${request.reason ? `: ${request.reason}` : ''})`;
}
