import type { CommitStatus } from '../core/forge/commit-status';

/** The comment a forge holds for CLM on a pull request. */
export interface PullRequestComment {
  readonly how: 'created' | 'updated';
  readonly id: number;
  readonly url?: string;
}

/**
 * Where CLM reports back to the forge the config lives in: commit statuses on GitHub (github.com or GitHub
 * Enterprise), GitLab or Bitbucket Cloud (the forge of each config source's host), and the one plan comment on a
 * GitHub pull request.
 */
export interface Forge {
  /** False when no forge credentials are configured: the caller reports nothing (and says so). */
  readonly configured: boolean;
  /** Set a commit status. Errors: ConfigError (the forge refused: its status and message), TransientApiError (5xx, unreachable). */
  setStatus(status: CommitStatus): Promise<void>;
  /**
   * Create, or update in place, the one comment on pull request `number` whose body contains `marker` (a hidden
   * HTML comment). Never a second one.
   */
  upsertComment(repository: string, number: number, marker: string, body: string): Promise<PullRequestComment>;
}
