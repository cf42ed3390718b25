import { createHash } from 'node:crypto';
import type { CommitState, CommitStatus } from '../../core/forge/commit-status';
import type { Forge, PullRequestComment } from '../../ports/forge';
import { ConfigError } from '../../shared/errors';
import { DEFAULT_BITBUCKET_API_URL, type BitbucketAuth } from './forge-secret';
import { errorText, forgeRequest, jsonOf } from './forge-http';

export interface BitbucketForgeOptions {
  /** @default DEFAULT_BITBUCKET_API_URL */
  readonly apiUrl?: string;
  readonly auth: BitbucketAuth;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** Per request. @default 10000 */
  readonly timeoutMs?: number;
}

const STATES: Readonly<Record<CommitState, string>> = {
  pending: 'INPROGRESS',
  success: 'SUCCESSFUL',
  failure: 'FAILED',
  error: 'STOPPED',
};

/** Bitbucket refuses a build status key over 40 characters. */
export const BITBUCKET_KEY_MAX = 40;

/**
 * The build status key of a context: the context itself when it fits in 40 characters, else its first 31 characters,
 * `-` and 8 hex digits of its SHA-256 (stable, so a later state replaces the earlier one).
 */
export function bitbucketKey(context: string): string {
  if (context.length <= BITBUCKET_KEY_MAX) return context;
  const hash = createHash('sha256').update(context).digest('hex').slice(0, 8);
  return `${context.slice(0, BITBUCKET_KEY_MAX - 9)}-${hash}`;
}

/**
 * Bitbucket Cloud's build statuses: `POST /repositories/{workspace}/{repo_slug}/commit/{sha}/statuses/build`, one per
 * `key` (a later POST of the key replaces its state). The key is bitbucketKey(context), `name` the full context, `url`
 * the execution, or — a local run has none, and Bitbucket requires one — the commit's page on Bitbucket. A 4xx is a
 * ConfigError with Bitbucket's message; 5xx and network failures are TransientApiError.
 */
export class BitbucketForge implements Forge {
  readonly configured = true;
  private readonly apiUrl: string;

  constructor(private readonly options: BitbucketForgeOptions) {
    this.apiUrl = (options.apiUrl ?? DEFAULT_BITBUCKET_API_URL).replace(/\/+$/, '');
  }

  async setStatus(status: CommitStatus): Promise<void> {
    const [workspace, slug, ...rest] = status.project.split('/');
    if (!workspace || !slug || rest.length)
      throw new ConfigError(`Bitbucket repository ${JSON.stringify(status.project)} is not workspace/repo_slug`);
    const repo = `${encodeURIComponent(workspace)}/${encodeURIComponent(slug)}`;
    const sha = encodeURIComponent(status.sha);
    const path = `/repositories/${repo}/commit/${sha}/statuses/build`;
    const where = `Bitbucket API POST ${this.apiUrl}${path}`;
    const answer = await forgeRequest({
      where,
      url: `${this.apiUrl}${path}`,
      method: 'POST',
      headers: { authorization: this.authorization() },
      body: {
        key: bitbucketKey(status.context),
        name: status.context,
        state: STATES[status.state],
        url: status.targetUrl ?? `https://${status.host || 'bitbucket.org'}/${repo}/commits/${sha}`,
        description: status.description,
      },
      fetch: this.options.fetch ?? globalThis.fetch,
      timeoutMs: this.options.timeoutMs ?? 10_000,
    });
    if (answer.status >= 400) throw new ConfigError(`${where}: HTTP ${answer.status} ${bitbucketMessage(answer.text)}`);
  }

  async upsertComment(repository: string): Promise<PullRequestComment> {
    throw new ConfigError(`${repository}: plan comments on Bitbucket pull requests are not supported; GitHub only`);
  }

  private authorization(): string {
    const auth = this.options.auth;
    if (auth.kind === 'bearer') return `Bearer ${auth.token}`;
    return `Basic ${Buffer.from(`${auth.username}:${auth.appPassword}`).toString('base64')}`;
  }
}

/** Bitbucket's error body: `{"type": "error", "error": {"message": "…", "fields": {"url": ["…"]}}}`. */
function bitbucketMessage(text: string): string {
  const json = jsonOf(text) as { error?: { message?: string; fields?: unknown } } | undefined;
  if (!json?.error) return text.slice(0, 200);
  const fields = json.error.fields ? errorText(json.error.fields) : '';
  return [json.error.message, fields].filter(Boolean).join(': ');
}
