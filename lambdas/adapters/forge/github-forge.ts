import type { CommitStatus } from '../../core/forge/commit-status';
import type { Forge, PullRequestComment } from '../../ports/forge';
import { ConfigError, TransientApiError } from '../../shared/errors';

/** Where GitHub's REST API is: `https://api.github.com`, or `https://HOST/api/v3` for GitHub Enterprise Server. */
export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';

export interface GithubForgeOptions {
  /** @default DEFAULT_GITHUB_API_URL */
  readonly apiUrl?: string;
  /** A token for each request: a fixed one, or a GitHub App's installation token (github-app-token.ts). */
  readonly token: () => Promise<string>;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** Per request. @default 10000 */
  readonly timeoutMs?: number;
}

const PAGE = 100;
/** Comments looked through for the marker: 30 pages of 100. */
const MAX_PAGES = 30;

/**
 * GitHub's REST API for what CLM reports: `POST /repos/{owner}/{repo}/statuses/{sha}`, and the plan comment on a pull
 * request (`GET /repos/{owner}/{repo}/issues/{n}/comments`, then `PATCH …/issues/comments/{id}` or `POST`). A 4xx is
 * a ConfigError carrying GitHub's message (bad credentials, unknown commit, too many statuses); 5xx and network
 * failures are TransientApiError.
 */
export class GithubForge implements Forge {
  readonly configured = true;
  private readonly apiUrl: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: GithubForgeOptions) {
    this.apiUrl = (options.apiUrl ?? DEFAULT_GITHUB_API_URL).replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  async setStatus(status: CommitStatus): Promise<void> {
    await this.call('POST', `/repos/${repoPath(status.repository)}/statuses/${encodeURIComponent(status.sha)}`, {
      state: status.state,
      context: status.context,
      description: status.description,
      ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
    });
  }

  async upsertComment(repository: string, number: number, marker: string, body: string): Promise<PullRequestComment> {
    const repo = repoPath(repository);
    for (let page = 1; page <= MAX_PAGES; page++) {
      const comments = (await this.call(
        'GET',
        `/repos/${repo}/issues/${number}/comments?per_page=${PAGE}&page=${page}`,
      )) as { id: number; body?: string; html_url?: string }[];
      const ours = comments.find((c) => c.body?.includes(marker));
      if (ours) {
        const updated = (await this.call('PATCH', `/repos/${repo}/issues/comments/${ours.id}`, { body })) as {
          html_url?: string;
        };
        return { how: 'updated', id: ours.id, ...(updated.html_url ? { url: updated.html_url } : {}) };
      }
      if (comments.length < PAGE) break;
    }
    const created = (await this.call('POST', `/repos/${repo}/issues/${number}/comments`, { body })) as {
      id: number;
      html_url?: string;
    };
    return { how: 'created', id: created.id, ...(created.html_url ? { url: created.html_url } : {}) };
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const where = `GitHub API ${method} ${this.apiUrl}${path.split('?')[0]}`;
    let response: Response;
    try {
      response = await this.fetch(`${this.apiUrl}${path}`, {
        method,
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${await this.options.token()}`,
          'x-github-api-version': '2022-11-28',
          'user-agent': 'clm',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new TransientApiError(`${where}: cannot reach it: ${(error as Error).message}`, { cause: error });
    }
    const text = await response.text();
    if (response.status >= 500) throw new TransientApiError(`${where}: HTTP ${response.status}`);
    if (!response.ok) throw new ConfigError(`${where}: HTTP ${response.status} ${githubMessage(text)}`);
    return text ? JSON.parse(text) : undefined;
  }
}

function repoPath(repository: string): string {
  const [owner, name, ...rest] = repository.split('/');
  if (!owner || !name || rest.length)
    throw new ConfigError(`repository ${JSON.stringify(repository)} is not owner/name`);
  return `${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
}

/** GitHub's error body: `{"message": "...", "errors": [{"message"|"code"…}]}`. */
function githubMessage(text: string): string {
  try {
    const json = JSON.parse(text) as {
      message?: string;
      errors?: { message?: string; code?: string; field?: string }[];
    };
    const details = (json.errors ?? [])
      .map((e) => e.message ?? [e.field, e.code].filter(Boolean).join(' '))
      .filter(Boolean);
    return [json.message, ...details].filter(Boolean).join(': ');
  } catch {
    return text.slice(0, 200);
  }
}
