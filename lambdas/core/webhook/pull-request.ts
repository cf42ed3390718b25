import type { GithubPullRequestEvent } from './github-events';
import { PLANNED_PULL_REQUEST_ACTIONS } from './github-events';

/** A pull request whose head is to be planned against the clusters its base branch feeds. */
export interface PullRequestNotice {
  /** `owner/name` of the base repository. */
  readonly repository: string;
  readonly number: number;
  readonly head: string;
  /** The base branch, as a full ref (`refs/heads/main`): clusters whose channel names it are planned. */
  readonly base: string;
  readonly url?: string;
}

/** The pull request to plan, or why this event is not one (an action without a new head, a fork). */
export function pullRequestNotice(event: GithubPullRequestEvent): PullRequestNotice | { readonly ignored: string } {
  if (!(PLANNED_PULL_REQUEST_ACTIONS as readonly string[]).includes(event.action)) {
    return {
      ignored: `pull_request action ${event.action}: only ${PLANNED_PULL_REQUEST_ACTIONS.join(', ')} are planned`,
    };
  }
  const pr = event.pull_request;
  const repository = event.repository.full_name;
  const headRepo = pr.head.repo?.full_name;
  if (headRepo?.toLowerCase() !== repository.toLowerCase()) {
    // Planning renders the head's templates with CLM's credentials (secrets decrypted) and posts what it found.
    return {
      ignored: `pull request #${pr.number} comes from ${headRepo ?? 'a deleted fork'}: pull requests from forks are not planned`,
    };
  }
  return {
    repository,
    number: pr.number,
    head: pr.head.sha.toLowerCase(),
    base: `refs/heads/${pr.base.ref}`,
    ...(pr.html_url ? { url: pr.html_url } : {}),
  };
}
