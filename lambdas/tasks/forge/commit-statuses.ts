import { ClusterUpdateInput } from '../../contracts/cluster-update';
import type { ExecutionStatusChange } from '../../contracts/triggers';
import {
  commitState,
  executionLink,
  statusContext,
  statusDescription,
  versionCommits,
  type CommitStatus,
} from '../../core/forge/commit-status';
import { parseVersion } from '../../core/version/cluster-version';
import type { Forge } from '../../ports/forge';
import type { ConfigSource } from '../../ports/config-source';
import type { Cluster } from '../../core/model/cluster';
import { isRetryable } from '../../shared/errors';

/** What reporting one status change did. */
export interface Reported {
  readonly statuses: {
    readonly repository: string;
    readonly sha: string;
    readonly context: string;
    readonly state: string;
  }[];
  readonly problems: string[];
  readonly message: string;
}

/**
 * The statuses of one cluster-update execution's start or end: on each commit of the version it works towards (the
 * version its Prepare ran to when it succeeded, else the one its starter resolved: `input.targetVersion`), context
 * `clm/<alias>`. A refusal of one status is a problem in the answer; a transient failure is thrown after the others
 * were tried (the rule's retry sends the change again; a status set twice is harmless).
 */
export async function reportCommitStatuses(
  change: ExecutionStatusChange,
  input: ClusterUpdateInput,
  ctx: {
    readonly forge: Forge;
    readonly sources: readonly ConfigSource[];
    readonly cluster: Cluster | undefined;
    readonly ranTo?: string;
  },
): Promise<Reported> {
  const version = (change.status === 'SUCCEEDED' ? ctx.ranTo : undefined) ?? input.targetVersion;
  const configVersion = version ? (parseVersion(version)?.configVersion ?? version) : undefined;
  if (!configVersion) {
    return {
      statuses: [],
      problems: [],
      message: `${change.name}: no commit known (started without a target version)`,
    };
  }
  const state = commitState(change.status);
  const targetUrl = executionLink(change.executionArn);
  const description = statusDescription({
    state,
    action: input.action,
    executionName: change.name,
    clusterId: input.clusterId,
    ...(change.error ? { error: change.error } : {}),
    local: !targetUrl,
  });
  const context = statusContext(ctx.cluster?.alias ?? input.clusterId);
  const statuses: CommitStatus[] = versionCommits(configVersion, ctx.sources).map((commit) => ({
    repository: commit.repository,
    project: commit.project,
    host: commit.host,
    sha: commit.sha,
    state,
    context,
    description,
    ...(targetUrl ? { targetUrl } : {}),
  }));
  const done: Reported['statuses'] = [];
  const problems: string[] = [];
  let transient: unknown;
  for (const status of statuses) {
    try {
      await ctx.forge.setStatus(status);
      done.push({ repository: status.repository, sha: status.sha, context: status.context, state: status.state });
    } catch (error) {
      if (isRetryable(error)) transient ??= error;
      problems.push((error as Error).message);
    }
  }
  if (transient) throw transient;
  const message = statuses.length
    ? `${context} ${state} on ${done.map((s) => `${s.repository}@${s.sha.slice(0, 12)}`).join(', ') || 'no commit'}`
    : `${change.name}: version ${configVersion} names no commit of a git config source`;
  return { statuses: done, problems, message };
}

/** The execution input, as much of it as parses (a console start may carry anything). */
export function executionInput(change: ExecutionStatusChange): ClusterUpdateInput | undefined {
  try {
    const parsed = ClusterUpdateInput.safeParse(JSON.parse(change.input ?? 'null'));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
