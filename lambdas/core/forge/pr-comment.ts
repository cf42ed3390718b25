import type { ClusterPlan } from '../plan/plan-document';
import { clip } from './commit-status';

/** The hidden marker that finds CLM's one comment on a pull request. */
export function commentMarker(number: number): string {
  return `<!-- clm:pull-request-plan #${number} -->`;
}

/** One cluster's part of the comment: its plan, why there is none, or that it is still being made. */
export type ClusterPlanEntry =
  | {
      readonly clusterId: string;
      readonly alias: string;
      readonly state: 'planned';
      readonly plan: ClusterPlan;
      readonly link?: string;
    }
  | {
      readonly clusterId: string;
      readonly alias: string;
      readonly state: 'failed';
      readonly reason: string;
      readonly link?: string;
    }
  | { readonly clusterId: string; readonly alias: string; readonly state: 'running'; readonly link?: string };

export interface PullRequestCommentInput {
  readonly number: number;
  readonly head: string;
  readonly base: string;
  /** Clusters following the base branch beyond those listed (the comment covers the first ones). */
  readonly more?: number;
  readonly entries: readonly ClusterPlanEntry[];
}

/** GitHub's limit on a comment body is 65,536 characters; stay well below. */
const MAX_BODY = 60_000;
const LISTED = 8;

/**
 * The comment: a line per cluster (what would change), then per cluster the stacks that change, the manifest objects
 * created/changed/pruned, the pools that would roll (nodes, estimated minutes) and problems, each list cut short
 * with a count; the full plan linked. Never says anything was applied: nothing is.
 */
export function pullRequestComment(input: PullRequestCommentInput): string {
  const lines = [
    commentMarker(input.number),
    `### CLM plan for ${input.head.slice(0, 12)} → \`${input.base}\``,
    '',
    `${input.entries.length} cluster${input.entries.length === 1 ? '' : 's'} follow \`${input.base}\`${input.more ? ` (${input.more} more not shown)` : ''}. Nothing is applied from a pull request; merging it starts the updates.`,
    '',
  ];
  for (const entry of input.entries) lines.push(...section(entry), '');
  const body = lines.join('\n');
  return body.length <= MAX_BODY ? body : `${body.slice(0, MAX_BODY)}\n\n… (cut; see each cluster's full plan)`;
}

function section(entry: ClusterPlanEntry): string[] {
  const title = `#### \`${entry.alias}\` (${entry.clusterId})`;
  const link = entry.link ? ` · [full plan](${entry.link})` : '';
  if (entry.state === 'running') return [title, `⏳ planning…${link}`];
  if (entry.state === 'failed') return [title, `❌ no plan: ${clip(oneLine(entry.reason), 500)}${link}`];
  const plan = entry.plan;
  const stacks = plan.stacks.filter((s) => s.action !== 'no-changes');
  const created = plan.objects.filter((o) => o.action === 'create');
  const changed = plan.objects.filter((o) => o.action === 'update');
  const pools = plan.pools.filter((p) => p.nodes > 0);
  const nothing = !stacks.length && !created.length && !changed.length && !plan.deletions.length && !pools.length;
  const out = [
    title,
    `${nothing ? '✅ no changes' : '📝 changes'}: ${stacks.length} stack${stacks.length === 1 ? '' : 's'}, ${created.length} created, ${changed.length} changed, ${plan.deletions.length} pruned, ${pools.length} pool${pools.length === 1 ? '' : 's'} to roll${link}`,
  ];
  if (stacks.length)
    out.push(
      `- stacks: ${listed(stacks.map((s) => `${s.name} (${s.action}, ${s.changes.length} resource${s.changes.length === 1 ? '' : 's'})`))}`,
    );
  if (created.length) out.push(`- created: ${listed(created.map((o) => refText(o.ref)))}`);
  if (changed.length) out.push(`- changed: ${listed(changed.map((o) => refText(o.ref)))}`);
  if (plan.deletions.length) out.push(`- pruned: ${listed(plan.deletions.map((d) => refText(d.ref)))}`);
  if (pools.length) {
    const minutes = pools.reduce((sum, p) => sum + p.estimatedMinutes, 0);
    out.push(
      `- pools to roll (about ${minutes} min in all): ${listed(pools.map((p) => `${p.pool}: ${p.nodes} node${p.nodes === 1 ? '' : 's'}, ~${p.estimatedMinutes} min`))}`,
    );
  }
  for (const problem of plan.problems.slice(0, LISTED)) out.push(`- ⚠️ ${clip(oneLine(problem), 300)}`);
  if (plan.problems.length > LISTED) out.push(`- ⚠️ … ${plan.problems.length - LISTED} more problems`);
  return out;
}

function listed(items: readonly string[]): string {
  const shown = items
    .slice(0, LISTED)
    .map((i) => `\`${i}\``)
    .join(', ');
  return items.length > LISTED ? `${shown} and ${items.length - LISTED} more` : shown;
}

function refText(ref: { readonly kind: string; readonly name: string; readonly namespace?: string }): string {
  return `${ref.kind}/${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A link to a stored plan document: the S3 console for `s3://bucket/key`, else the location as it is. */
export function planLink(location: string | undefined): string | undefined {
  const s3 = /^s3:\/\/([^/]+)\/(.+)$/.exec(location ?? '');
  if (s3) return `https://s3.console.aws.amazon.com/s3/object/${s3[1]}?prefix=${encodeURIComponent(s3[2])}`;
  return location;
}
