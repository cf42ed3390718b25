import * as z from '../shared/zod';
import { PullRequestAccepted } from '../contracts/fleet-events';
import { clustersFollowing } from '../core/webhook/push-match';
import { defineTask, type PortsFor } from './define-task';
import { headVersion, MAX_PLANNED_CLUSTERS, planExecutionName, planInput } from './forge/plan-inputs';
import { isRetryable } from '../shared/errors';

const PORTS = { registry: 'read', sources: 'read', executions: 'write' } as const;

export const PullRequestPlans = z.object({
  started: z.array(z.string()),
  alreadyPlanned: z.array(z.string()),
  problems: z.array(z.string()),
  message: z.string(),
});
export type PullRequestPlans = z.infer<typeof PullRequestPlans>;

/**
 * A pull request the webhook accepted: an `action: plan` execution per cluster its base branch feeds (the first 50),
 * each planning the config the cluster would get from the PR's head. Plans write nothing but their documents; their
 * ends write the PR's comment (ReportToForge). A cluster whose version cannot be resolved is a problem in the answer.
 */
export async function planPullRequest(
  accepted: z.infer<typeof PullRequestAccepted>,
  ports: PortsFor<typeof PORTS>,
): Promise<PullRequestPlans> {
  const pr = { ...accepted, head: accepted.head.toLowerCase() };
  const clusters = await ports.registry.listClusters();
  const following = clustersFollowing(pr.repository, pr.base, ports.sources, clusters);
  const planned = clusters.filter((c) => following.clusters.includes(c.id)).slice(0, MAX_PLANNED_CLUSTERS);
  const ids = planned.map((c) => c.id);
  const result: PullRequestPlans = { started: [], alreadyPlanned: [], problems: [...following.problems], message: '' };
  for (const cluster of planned) {
    let version;
    try {
      version = await headVersion(cluster, pr, ports.sources, following.sources);
    } catch (error) {
      if (isRetryable(error)) throw error;
      result.problems.push(`${cluster.id}: ${(error as Error).message}`);
      continue;
    }
    const name = planExecutionName(cluster, pr);
    const started = await ports.executions.start({ name, input: planInput(cluster, pr, version, ids) });
    (started.how === 'started' ? result.started : result.alreadyPlanned).push(cluster.id);
  }
  const more = following.clusters.length - planned.length;
  return {
    ...result,
    message: `${pr.repository}#${pr.number} at ${pr.head.slice(0, 12)}: ${result.started.length} plan(s) started, ${result.alreadyPlanned.length} already planned${more > 0 ? `, ${more} cluster(s) beyond the first ${MAX_PLANNED_CLUSTERS} not planned` : ''}`,
  };
}

export const task = defineTask({
  name: 'PlanPullRequest',
  description: "Plans a pull request's head for the clusters its base branch feeds (action plan executions)",
  input: PullRequestAccepted,
  output: PullRequestPlans,
  ports: PORTS,
  lambda: { memoryMb: 512, timeoutSeconds: 120 },
  triggers: [{ kind: 'pull-request-events' }],
  step: planPullRequest,
});
