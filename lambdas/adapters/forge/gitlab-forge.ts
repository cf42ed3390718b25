import type { CommitState, CommitStatus } from '../../core/forge/commit-status';
import type { Forge, PullRequestComment } from '../../ports/forge';
import { ConfigError } from '../../shared/errors';
import { DEFAULT_GITLAB_API_URL } from './forge-secret';
import { errorText, forgeRequest, jsonOf } from './forge-http';

export interface GitlabForgeOptions {
  /** `https://gitlab.com/api/v4`, or `https://HOST/api/v4` of a self-managed GitLab. @default DEFAULT_GITLAB_API_URL */
  readonly apiUrl?: string;
  /** A personal, group or project access token with the `api` scope (sent as `PRIVATE-TOKEN`). */
  readonly token: string;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** Per request. @default 10000 */
  readonly timeoutMs?: number;
}

/** GitLab's states for CLM's: an update that started is `running`; an aborted one `canceled`. */
const STATES: Readonly<Record<CommitState, string>> = {
  pending: 'running',
  success: 'success',
  failure: 'failed',
  error: 'canceled',
};

/** GitLab's refusal to move a status to the state it already has (`… via :run from :running`). */
const SAME_STATE = /Cannot transition status via :\w+ from :(\w+)/;

/**
 * GitLab's commit status API: `POST /projects/:id/statuses/:sha` with the project's whole path URL-encoded as `:id`
 * (GitLab has nested groups), `name` the context. A 400 saying the status already is in the state asked for is done
 * (a status change reported twice); any other 4xx is a ConfigError with GitLab's message; 5xx and network failures
 * are TransientApiError.
 */
export class GitlabForge implements Forge {
  readonly configured = true;
  private readonly apiUrl: string;

  constructor(private readonly options: GitlabForgeOptions) {
    this.apiUrl = (options.apiUrl ?? DEFAULT_GITLAB_API_URL).replace(/\/+$/, '');
  }

  async setStatus(status: CommitStatus): Promise<void> {
    const state = STATES[status.state];
    const path = `/projects/${encodeURIComponent(status.project)}/statuses/${encodeURIComponent(status.sha)}`;
    const where = `GitLab API POST ${this.apiUrl}${path}`;
    const answer = await forgeRequest({
      where,
      url: `${this.apiUrl}${path}`,
      method: 'POST',
      headers: { 'private-token': this.options.token },
      body: {
        state,
        name: status.context,
        description: status.description,
        ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
      },
      fetch: this.options.fetch ?? globalThis.fetch,
      timeoutMs: this.options.timeoutMs ?? 10_000,
    });
    if (answer.status < 400) return;
    const message = gitlabMessage(answer.text);
    if (answer.status === 400 && SAME_STATE.exec(message)?.[1] === state) return;
    throw new ConfigError(`${where}: HTTP ${answer.status} ${message}`);
  }

  async upsertComment(repository: string): Promise<PullRequestComment> {
    throw new ConfigError(`${repository}: plan comments on merge requests are not supported; GitHub only`);
  }
}

/** GitLab's error body: `{"message": "404 Project Not Found"}`, `{"message": {"field": ["…"]}}` or `{"error": "…"}`. */
function gitlabMessage(text: string): string {
  const json = jsonOf(text) as { message?: unknown; error?: unknown } | undefined;
  if (json && typeof json === 'object' && (json.message !== undefined || json.error !== undefined))
    return errorText(json.message ?? json.error);
  return text.slice(0, 200);
}
