import type { Cluster, Problem } from '../../core/model/cluster';
import { nodesDue } from '../../core/node-renewal/nodes-due';
import { renewalStart, type renewalCandidates } from '../../core/dispatch/renewal-starts';
import type { PlannedStart } from '../../core/dispatch/plan-dispatch';
import { GENERAL_ERROR_TYPE } from '../../core/status/problems';
import type { ClusterPorts } from '../../ports/ports';

/** Clusters whose nodes one pass lists at once (each a GET /api/v1/nodes on its own API server). */
export const NODE_CHECKS_AT_ONCE = 16;

export interface NodeChecks {
  readonly starts: readonly PlannedStart[];
  readonly problems: readonly { readonly clusterId: string; readonly problem: Problem }[];
  /** Clusters whose nodes were listed (one API call each). */
  readonly checked: number;
}

/**
 * The scheduled pass's look at nodes (core/dispatch/renewal-starts.ts): one listing of the nodes of each candidate,
 * the rules of the roll (core/node-renewal/nodes-due.ts), and a renewal run only where nodes are due; a cap that holds
 * repairs back is recorded as the cluster's problem. An API server that does not answer is skipped (its problem
 * recorded), never the pass.
 */
export async function checkNodes(
  ports: { forCluster(cluster: Cluster): Pick<ClusterPorts, 'kube'> },
  candidates: ReturnType<typeof renewalCandidates>,
  trigger: string,
  now: number,
): Promise<NodeChecks> {
  const starts: PlannedStart[] = [];
  const problems: { clusterId: string; problem: Problem }[] = [];
  for (let i = 0; i < candidates.length; i += NODE_CHECKS_AT_ONCE) {
    const batch = candidates.slice(i, i + NODE_CHECKS_AT_ONCE);
    const looks = await Promise.all(
      batch.map(async ({ cluster }) => {
        try {
          return nodesDue(cluster, await ports.forCluster(cluster).kube.listNodes(), now);
        } catch (error) {
          return { due: [], notes: [`node repair check: listing the nodes failed: ${(error as Error).message}`] };
        }
      }),
    );
    batch.forEach(({ cluster, targetVersion }, index) => {
      const found = looks[index]!;
      for (const title of found.notes)
        problems.push({ clusterId: cluster.id, problem: { type: GENERAL_ERROR_TYPE, title } });
      if (found.due.length) starts.push(renewalStart(cluster, targetVersion, found.due, trigger, now));
    });
  }
  return { starts, problems, checked: candidates.length };
}
