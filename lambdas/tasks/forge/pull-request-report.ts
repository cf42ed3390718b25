import type { PullRequestPlan } from '../../contracts/cluster-update';
import { PlanOutput } from '../../contracts/cluster-update';
import type { ExecutionStatusChange } from '../../contracts/triggers';
import { commentMarker, planLink, pullRequestComment, type ClusterPlanEntry } from '../../core/forge/pr-comment';
import {
  shownContent,
  withCommentId,
  withSection,
  type PlanSection,
  type PullRequestCommentRecord,
} from '../../core/forge/pr-comment-record';
import type { Cluster } from '../../core/model/cluster';
import type { ClusterPlan } from '../../core/plan/plan-document';
import type { ArtifactStore } from '../../ports/artifact-store';
import type { PullRequestComments } from '../../ports/fleet-store';
import type { Forge, PullRequestComment } from '../../ports/forge';
import { ConflictError } from '../../shared/errors';
import type { Reported } from './commit-statuses';

/** A claim to create the comment is taken over after this long (its report died: twice ReportToForge's timeout). */
export const CREATE_CLAIM_STALE_MS = 120_000;
/** Conditional writes tried before giving up to the invocation's retry (each lost one means another report won). */
const WRITE_ATTEMPTS = 20;
/** Comment writes of one report while other reports keep changing the record (each of those writes it too). */
const COMMENT_ROUNDS = 5;

interface ReportContext {
  readonly forge: Forge;
  readonly artifacts: ArtifactStore;
  readonly comments: PullRequestComments;
  readonly clusters: readonly Cluster[];
  readonly now: number;
}

/**
 * A plan execution of a pull request started or ended. Its cluster's section goes into the PR's record in the state
 * table (a conditional write over the version read, redone when another report won), then the one comment is
 * written from the record. Only the report that claimed its creation creates the comment (so two reports ending at
 * once never make two); the others leave it to that one, which writes it again with every section the record has
 * by then. After each write the record is read again, and the comment rewritten while it shows less than the record.
 */
export async function reportPullRequestPlan(
  change: ExecutionStatusChange,
  pr: PullRequestPlan,
  clusterId: string,
  ctx: ReportContext,
): Promise<Reported> {
  const where = `${pr.repository}#${pr.number}`;
  const by = `${change.name}:${change.status}`;
  const committed = await commitSection(ctx, pr, clusterId, sectionOf(change), by);
  if (committed.superseded)
    return reported(`${where}: plan of ${pr.head.slice(0, 12)} superseded by a later push; comment left as it is`);
  if (committed.record.commentId === undefined && !committed.creates)
    return reported(`${where}: plan comment being created by another report, which writes this cluster's section too`);
  const comment = await writeComment(ctx, committed.record, by);
  return reported(`${where}: plan comment ${comment.how}${comment.url ? ` (${comment.url})` : ''}`);
}

/** This report's section in the record, with the create claim when it may take it. */
async function commitSection(
  ctx: ReportContext,
  pr: PullRequestPlan,
  clusterId: string,
  section: PlanSection,
  by: string,
): Promise<ReturnType<typeof withSection>> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const stored = await ctx.comments.getPullRequestComment(pr.repository, pr.number);
    const change = withSection(stored, pr, clusterId, section, {
      by,
      now: ctx.now,
      staleAfterMs: CREATE_CLAIM_STALE_MS,
    });
    if (change.superseded) return change;
    if (await ctx.comments.savePullRequestComment(change.record))
      return { ...change, record: { ...change.record, version: change.record.version + 1 } };
  }
  throw new ConflictError(`${pr.repository}#${pr.number}: the plan comment record kept changing; try again`);
}

/** Write the comment until it shows what the record holds (recording a created comment's id first). */
async function writeComment(
  ctx: ReportContext,
  from: PullRequestCommentRecord,
  by: string,
): Promise<PullRequestComment> {
  let record = from;
  let first: PullRequestComment | undefined;
  for (let round = 0; round < COMMENT_ROUNDS; round++) {
    const body = await commentBody(record, ctx);
    const comment = await ctx.forge.upsertComment(record.repository, record.number, commentMarker(record.number), body);
    first ??= comment;
    if (record.commentId === undefined) await recordCommentId(ctx, record, comment.id, by);
    const latest = await ctx.comments.getPullRequestComment(record.repository, record.number);
    if (!latest || shownContent(latest) === shownContent(record)) break;
    record = latest;
  }
  return first!;
}

async function recordCommentId(ctx: ReportContext, from: PullRequestCommentRecord, id: number, by: string) {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const stored = await ctx.comments.getPullRequestComment(from.repository, from.number);
    if (!stored || stored.commentId !== undefined) return;
    if (stored.creating && stored.creating.by !== by) return;
    if (await ctx.comments.savePullRequestComment(withCommentId(stored, id))) return;
  }
  throw new ConflictError(`${from.repository}#${from.number}: could not record the plan comment's id ${id}`);
}

function reported(message: string): Reported {
  return { statuses: [], problems: [], message };
}

function sectionOf(change: ExecutionStatusChange): PlanSection {
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
  record: PullRequestCommentRecord,
  ctx: Pick<ReportContext, 'artifacts' | 'clusters'>,
): Promise<string> {
  const entries: ClusterPlanEntry[] = [];
  for (const clusterId of record.clusters) {
    const alias = ctx.clusters.find((c) => c.id === clusterId)?.alias ?? clusterId;
    const section = record.sections[clusterId];
    if (!section || section.state === 'running') {
      entries.push({ clusterId, alias, state: 'running' });
      continue;
    }
    if (section.state === 'failed') {
      entries.push({ clusterId, alias, state: 'failed', reason: section.reason });
      continue;
    }
    const link = planLink(ctx.artifacts.locationOf?.(section.planKey.replace(/\.json$/, '.txt')));
    const plan = parseJson(await ctx.artifacts.get(section.planKey)) as ClusterPlan | undefined;
    entries.push(
      plan
        ? { clusterId, alias, state: 'planned', plan, ...(link ? { link } : {}) }
        : { clusterId, alias, state: 'failed', reason: `the plan document ${section.planKey} is gone` },
    );
  }
  return pullRequestComment({ number: record.number, head: record.head, base: record.base, entries });
}

function parseJson(text: string | null | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
