import * as z from '../shared/zod';
import { ExecutionStatusChange } from '../contracts/triggers';
import { defineTask, type PortsFor } from './define-task';
import { executionInput, reportCommitStatuses } from './forge/commit-statuses';
import { reportPullRequestPlan } from './forge/pull-request-report';

const PORTS = {
  forge: 'write',
  registry: 'read',
  sources: 'read',
  executions: 'read',
  // The plan documents PlanUpdate stored.
  artifacts: 'read',
  // The pull requests' comment records (conditional writes in the progress table).
  fleet: 'write',
  clock: 'read',
} as const;

export const ForgeReport = z.object({
  statuses: z.array(z.object({ repository: z.string(), sha: z.string(), context: z.string(), state: z.string() })),
  problems: z.array(z.string()),
  message: z.string(),
});
export type ForgeReport = z.infer<typeof ForgeReport>;

/**
 * What a cluster-update execution's start or end tells the forge, whatever started it (the dispatcher, `--remote`,
 * the console): an update or decommission sets the commit statuses `clm/<alias>` (pending, then success or failure,
 * linked to the execution); a pull request's plan writes the one plan comment on the PR. Nothing without forge
 * credentials; nothing for an execution whose commit is not known.
 */
export async function reportToForge(
  change: ExecutionStatusChange,
  ports: PortsFor<typeof PORTS>,
): Promise<ForgeReport> {
  const input = executionInput(change);
  if (!input)
    return { statuses: [], problems: [], message: `${change.name}: not a cluster-update input; nothing reported` };
  if (!ports.forge.configured) return { statuses: [], problems: [], message: 'no forge configured; nothing reported' };
  const clusters = await ports.registry.listClusters();
  if (input.action === 'plan') {
    if (!input.pullRequest) return { statuses: [], problems: [], message: `${change.name}: a plan of no pull request` };
    return reportPullRequestPlan(change, input.pullRequest, input.clusterId, {
      forge: ports.forge,
      artifacts: ports.artifacts,
      comments: ports.fleet,
      clusters,
      now: ports.clock.now(),
    });
  }
  const ranTo =
    change.status === 'SUCCEEDED'
      ? (
          await ports.executions.describe([
            { name: change.name, ...(change.executionArn ? { arn: change.executionArn } : {}) },
          ])
        )[0]?.ranTo
      : undefined;
  return reportCommitStatuses(change, input, {
    forge: ports.forge,
    sources: ports.sources,
    cluster: clusters.find((c) => c.id === input.clusterId),
    ...(ranTo ? { ranTo } : {}),
  });
}

export const task = defineTask({
  name: 'ReportToForge',
  description: "Commit statuses of an update's start and end, and the plan comment of a pull request",
  input: ExecutionStatusChange,
  output: ForgeReport,
  ports: PORTS,
  lambda: { memoryMb: 512, timeoutSeconds: 60 },
  triggers: [{ kind: 'execution-status' }],
  step: reportToForge,
});
