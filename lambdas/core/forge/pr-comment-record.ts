/**
 * What the state table keeps of a pull request's one plan comment, so that reports ending at the same moment never
 * create two comments nor drop another cluster's section: every change is a read-modify-write over the version it
 * read (optimistic concurrency), and creating the comment is claimed first (only the claimant creates it).
 */

/** One cluster's part of the comment: its plan is being made, made (its document's key), or cannot be made. */
export type PlanSection =
  | { readonly state: 'running' }
  | { readonly state: 'planned'; readonly planKey: string }
  | { readonly state: 'failed'; readonly reason: string };

export interface PullRequestCommentRecord {
  readonly repository: string;
  readonly number: number;
  /** The head the sections are of (the newest reported), its base and the clusters the base feeds. */
  readonly head: string;
  readonly base: string;
  readonly clusters: readonly string[];
  /** Heads whose plans were replaced by a later push to the PR: their late reports change nothing. */
  readonly supersededHeads: readonly string[];
  readonly sections: Readonly<Record<string, PlanSection>>;
  /** The forge's id of the comment, once created. */
  readonly commentId?: number;
  /** The report creating the comment while it has no id (`by`: that report's token), and since when. */
  readonly creating?: { readonly by: string; readonly since: number };
  /** Written only over the version it was read at (absent: 0), then version + 1. */
  readonly version: number;
}

export interface PullRequestRef {
  readonly repository: string;
  readonly number: number;
  readonly head: string;
  readonly base: string;
  readonly clusters: readonly string[];
}

/** Heads remembered as superseded (a PR pushed to more often forgets the oldest). */
const SUPERSEDED_KEPT = 20;

export type SectionChange =
  /** The report's head was replaced by a later one: nothing to write. */
  | { readonly superseded: true }
  | {
      readonly superseded: false;
      readonly record: PullRequestCommentRecord;
      /** This report holds the claim to create the comment (no one else may). */
      readonly creates: boolean;
    };

/**
 * Pure: `stored` with one cluster's section of `pr` set (a new head starts from no sections and supersedes the
 * previous one), and the claim to create the comment taken when there is no comment yet and no live claim — or
 * when the claim is this report's own (a retried invocation) or older than `staleAfterMs` (its report died).
 */
export function withSection(
  stored: PullRequestCommentRecord | undefined,
  pr: PullRequestRef,
  clusterId: string,
  section: PlanSection,
  claim: { readonly by: string; readonly now: number; readonly staleAfterMs: number },
): SectionChange {
  if (stored?.supersededHeads.includes(pr.head)) return { superseded: true };
  const sameHead = stored?.head === pr.head;
  const superseded =
    stored && !sameHead
      ? [...stored.supersededHeads, stored.head].slice(-SUPERSEDED_KEPT)
      : (stored?.supersededHeads ?? []);
  const sections = { ...(sameHead ? stored.sections : {}), [clusterId]: section };
  const base = {
    repository: pr.repository,
    number: pr.number,
    head: pr.head,
    base: pr.base,
    clusters: [...pr.clusters],
    supersededHeads: superseded,
    sections,
    ...(stored?.commentId !== undefined ? { commentId: stored.commentId } : {}),
    version: stored?.version ?? 0,
  };
  if (stored?.commentId !== undefined) return { superseded: false, record: base, creates: false };
  const held = stored?.creating;
  const free = !held || held.by === claim.by || claim.now - held.since >= claim.staleAfterMs;
  return free
    ? { superseded: false, record: { ...base, creating: { by: claim.by, since: claim.now } }, creates: true }
    : { superseded: false, record: { ...base, creating: held }, creates: false };
}

/** Pure: the record with the created comment's id, the claim released. */
export function withCommentId(record: PullRequestCommentRecord, commentId: number): PullRequestCommentRecord {
  const { creating: _released, ...rest } = record;
  return { ...rest, commentId };
}

/** What a comment shows of a record: equal for two records that render the same comment. */
export function shownContent(record: PullRequestCommentRecord): string {
  return JSON.stringify([record.head, record.base, record.clusters, record.sections]);
}
