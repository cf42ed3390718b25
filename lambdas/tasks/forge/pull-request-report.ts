import type { PullRequestPlan } from '../../contracts/cluster-update';
import { PlanOutput } from '../../contracts/cluster-update';
import type { ExecutionStatusChange } from '../../contracts/triggers';
import { commentMarker, planLink, pullRequestComment, type ClusterPlanEntry } from '../../core/forge/pr-comment';
import type { Cluster } from '../../core/model/cluster';
import type { ClusterPlan } from '../../core/plan/plan-document';
import type { ArtifactStore } from '../../ports/artifact-store';
import type { Forge } from '../../ports/forge';
import type { Reported } from './commit-statuses';

/** Where one cluster's part of a pull request's comment is kept until the comment is written again. */
export function entryKey(pr: PullRequestPlan, clusterId: string): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]/g, '_');
  return `pull-requests/${safe(pr.repository)}/${pr.number}/${pr.head}/${safe(clusterId)}.json`;
}

type StoredEntry =
  | { readonly state: 'running' }
  | { readonly state: 'planned'; readonly planKey: string }
  | { readonly state: 'failed'; readonly reason: string };

/**
 * A plan execution of a pull request started or ended: keep this cluster's part (running, its plan's key, or why
 * there is no plan), then write the one comment again from every planned cluster's part (one that has none yet is
 * "planning"). Each execution's end rewrites the whole comment, so the last one to end leaves it complete; after
 * writing, the parts are read once more and the comment written again if another execution ended meanwhile.
 */
export async function reportPullRequestPlan(
  change: ExecutionStatusChange,
  pr: PullRequestPlan,
  clusterId: string,
  ctx: { readonly forge: Forge; readonly artifacts: ArtifactStore; readonly clusters: readonly Cluster[] },
): Promise<Reported> {
  await ctx.artifacts.put(entryKey(pr, clusterId), JSON.stringify(entryOf(change)));
  let body = await commentBody(pr, ctx);
  let comment = await ctx.forge.upsertComment(pr.repository, pr.number, commentMarker(pr.number), body);
  const again = await commentBody(pr, ctx);
  if (again !== body) {
    body = again;
    comment = await ctx.forge.upsertComment(pr.repository, pr.number, commentMarker(pr.number), body);
  }
  return {
    statuses: [],
    problems: [],
    message: `${pr.repository}#${pr.number}: plan comment ${comment.how}${comment.url ? ` (${comment.url})` : ''}`,
  };
}

function entryOf(change: ExecutionStatusChange): StoredEntry {
  if (change.status === 'RUNNING') return { state: 'running' };
  if (change.status !== 'SUCCEEDED') {
    return { state: 'failed', reason: [change.error, change.cause].filter(Boolean).join(': ') || change.status };
  }
  const output = parseJson(change.output) as
    { plan?: unknown; run?: { decision?: string; message?: string } } | undefined;
  const plan = PlanOutput.safeParse(output?.plan);
  if (plan.success) return { state: 'planned', planKey: plan.data.planKey };
  return { state: 'failed', reason: output?.run?.message ?? 'the execution ended without a plan' };
}

async function commentBody(
  pr: PullRequestPlan,
  ctx: { readonly artifacts: ArtifactStore; readonly clusters: readonly Cluster[] },
): Promise<string> {
  const entries: ClusterPlanEntry[] = [];
  for (const clusterId of pr.clusters) {
    const alias = ctx.clusters.find((c) => c.id === clusterId)?.alias ?? clusterId;
    const stored = parseJson(await ctx.artifacts.get(entryKey(pr, clusterId))) as StoredEntry | undefined;
    if (!stored || stored.state === 'running') {
      entries.push({ clusterId, alias, state: 'running' });
      continue;
    }
    if (stored.state === 'failed') {
      entries.push({ clusterId, alias, state: 'failed', reason: stored.reason });
      continue;
    }
    const link = planLink(ctx.artifacts.locationOf?.(stored.planKey.replace(/\.json$/, '.txt')));
    const plan = parseJson(await ctx.artifacts.get(stored.planKey)) as ClusterPlan | undefined;
    entries.push(
      plan
        ? { clusterId, alias, state: 'planned', plan, ...(link ? { link } : {}) }
        : { clusterId, alias, state: 'failed', reason: `the plan document ${stored.planKey} is gone` },
    );
  }
  return pullRequestComment({ number: pr.number, head: pr.head, base: pr.base, entries });
}

function parseJson(text: string | null | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
