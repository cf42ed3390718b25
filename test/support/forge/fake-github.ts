import { createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { commentBody, INVALID, invalid, readJson, verifyAppJwt } from './fake-github-rules';

/**
 * A fake of the parts of GitHub's REST API CLM uses, on 127.0.0.1, keeping real state and refusing what GitHub
 * refuses:
 * - auth: `Authorization: Bearer|token <t>` must be a known token (401 "Bad credentials"); a GitHub App's JWT
 *   (RS256 over the App's key, `iss` the App id, `exp` at most 10 min ahead) may only mint installation tokens
 *   (`POST /app/installations/{id}/access_tokens`, tokens valid 1 hour);
 * - `POST /repos/{o}/{r}/statuses/{sha}`: 404 for an unknown repository, 422 for a commit the repository does not
 *   have, a state outside pending/success/failure/error, a description over 140 characters, or the 1001st status of a
 *   sha and context; `GET /repos/{o}/{r}/commits/{ref}/statuses` lists them newest first;
 * - issue comments of a pull request: list (paginated, `per_page` ≤ 100, default 30), create, update; 404 for an
 *   unknown pull request or comment, 422 for an empty body or one over 65,536 characters.
 */
export interface FakeGithubOptions {
  /** Tokens accepted as they are (personal access tokens). */
  readonly tokens?: readonly string[];
  /** GitHub Apps: their id, public key and installation ids. */
  readonly apps?: readonly {
    readonly appId: string;
    readonly publicKey: string;
    readonly installations: readonly number[];
  }[];
  /** Whether a repository (`owner/name`, any case) has a commit: a set of SHAs, or a lookup (a local git repository). */
  readonly repositories: Readonly<Record<string, ReadonlySet<string> | ((sha: string) => boolean)>>;
  /** Pull request numbers per repository. */
  readonly pulls?: Readonly<Record<string, readonly number[]>>;
  /** A branch's head commit (`POST /repos/{o}/{r}/pulls` opens a pull request of it); absent: opening is refused. */
  readonly branchHead?: (repository: string, branch: string) => string | undefined;
  /** @default Date.now */
  readonly now?: () => number;
}

export interface FakeStatus {
  readonly id: number;
  readonly state: string;
  readonly context: string;
  readonly description: string | null;
  readonly target_url: string | null;
  readonly created_at: string;
}

export interface FakeComment {
  readonly id: number;
  body: string;
  readonly html_url: string;
  readonly created_at: string;
  updated_at: string;
}

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

const MAX_STATUSES_PER_CONTEXT = 1000;
const MAX_DESCRIPTION = 140;

export class FakeGithub {
  readonly requests: FakeRequest[] = [];
  /** Told of every request answered (the demo's log). */
  onRequest?: (request: FakeRequest) => void;
  private readonly tokens = new Map<string, number | undefined>();
  private readonly statuses = new Map<string, FakeStatus[]>();
  private readonly comments = new Map<string, FakeComment[]>();
  private readonly pulls = new Map<string, Set<number>>();
  private readonly apps = new Map<string, { key: KeyObject; installations: Set<number> }>();
  private nextId = 1;
  private server?: Server;
  url = '';

  constructor(private readonly options: FakeGithubOptions) {
    for (const token of options.tokens ?? []) this.tokens.set(token, undefined);
    for (const [repo, numbers] of Object.entries(options.pulls ?? {}))
      this.pulls.set(repo.toLowerCase(), new Set(numbers));
    for (const app of options.apps ?? [])
      this.apps.set(app.appId, { key: createPublicKey(app.publicKey), installations: new Set(app.installations) });
  }

  /** Open a pull request (the demo's `deliver pull_request` does). */
  addPull(repository: string, number: number): void {
    const key = repository.toLowerCase();
    if (!this.pulls.has(key)) this.pulls.set(key, new Set());
    this.pulls.get(key)!.add(number);
  }

  statusesOf(repository: string, sha: string): FakeStatus[] {
    return [...(this.statuses.get(`${repository.toLowerCase()}@${sha.toLowerCase()}`) ?? [])];
  }

  /** The latest status per context, as GitHub's combined status shows them. */
  latestStatuses(repository: string, sha: string): Record<string, string> {
    const latest: Record<string, string> = {};
    for (const status of this.statusesOf(repository, sha)) latest[status.context] = status.state;
    return latest;
  }

  commentsOf(repository: string, number: number): FakeComment[] {
    return [...(this.comments.get(`${repository.toLowerCase()}#${number}`) ?? [])];
  }

  async listen(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: Error) => this.send(req, res, 500, { message: error.message }));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const body = await readJson(req);
    if (body === INVALID) return this.send(req, res, 400, { message: 'Problems parsing JSON' });
    const credential = /^(?:bearer|token)\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const install = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(url.pathname);
    if (install && method === 'POST') return this.mintToken(req, res, credential, Number(install[1]));
    if (!credential || !this.tokenValid(credential)) {
      return this.send(req, res, 401, {
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
      });
    }
    const route = /^\/repos\/([^/]+)\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (!route) return this.send(req, res, 404, { message: 'Not Found' });
    const repository = `${decodeURIComponent(route[1])}/${decodeURIComponent(route[2])}`.toLowerCase();
    const commits = Object.entries(this.options.repositories).find(([name]) => name.toLowerCase() === repository)?.[1];
    if (!commits) return this.send(req, res, 404, { message: 'Not Found' });
    const has = (sha: string) => (typeof commits === 'function' ? commits(sha) : commits.has(sha));
    const rest = route[3];
    let match: RegExpExecArray | null;
    if ((match = /^statuses\/([^/]+)$/.exec(rest)) && method === 'POST')
      return this.createStatus(req, res, repository, match[1], has, body);
    if ((match = /^commits\/([^/]+)\/statuses$/.exec(rest)) && method === 'GET') {
      return this.send(req, res, 200, this.statusesOf(repository, match[1]).reverse());
    }
    if (rest === 'pulls' && method === 'POST') return this.openPull(req, res, repository, body);
    if ((match = /^issues\/(\d+)\/comments$/.exec(rest))) {
      const number = Number(match[1]);
      if (!this.pulls.get(repository)?.has(number)) return this.send(req, res, 404, { message: 'Not Found' });
      const key = `${repository}#${number}`;
      if (method === 'GET') {
        const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30) || 30);
        const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
        const all = this.comments.get(key) ?? [];
        return this.send(req, res, 200, all.slice((page - 1) * perPage, page * perPage));
      }
      if (method === 'POST') {
        const text = commentBody(body);
        if (typeof text !== 'string') return this.send(req, res, 422, text);
        const now = new Date(this.now()).toISOString();
        const id = this.nextId++;
        const comment = {
          id,
          body: text,
          html_url: `https://github.com/${repository}/pull/${number}#issuecomment-${id}`,
          created_at: now,
          updated_at: now,
        };
        this.comments.set(key, [...(this.comments.get(key) ?? []), comment]);
        return this.send(req, res, 201, comment);
      }
    }
    if ((match = /^issues\/comments\/(\d+)$/.exec(rest)) && method === 'PATCH') {
      const id = Number(match[1]);
      const comment = [...this.comments.entries()]
        .filter(([key]) => key.startsWith(`${repository}#`))
        .flatMap(([, list]) => list)
        .find((c) => c.id === id);
      if (!comment) return this.send(req, res, 404, { message: 'Not Found' });
      const text = commentBody(body);
      if (typeof text !== 'string') return this.send(req, res, 422, text);
      comment.body = text;
      comment.updated_at = new Date(this.now()).toISOString();
      return this.send(req, res, 200, comment);
    }
    return this.send(req, res, 404, { message: 'Not Found' });
  }

  private createStatus(
    req: IncomingMessage,
    res: ServerResponse,
    repository: string,
    sha: string,
    has: (sha: string) => boolean,
    body: unknown,
  ): void {
    const input = (body ?? {}) as Record<string, unknown>;
    if (!/^[0-9a-f]{40}$/i.test(sha) || !has(sha.toLowerCase())) {
      return this.send(req, res, 422, { message: `No commit found for SHA: ${sha}` });
    }
    const state = input.state;
    if (!['pending', 'success', 'failure', 'error'].includes(String(state))) {
      return this.send(req, res, 422, invalid('state', 'invalid', 'Validation Failed'));
    }
    const description =
      input.description === undefined || input.description === null ? null : String(input.description);
    if (description !== null && description.length > MAX_DESCRIPTION) {
      return this.send(
        req,
        res,
        422,
        invalid('description', 'custom', `description is too long (maximum is ${MAX_DESCRIPTION} characters)`),
      );
    }
    const context = typeof input.context === 'string' && input.context ? input.context : 'default';
    const key = `${repository}@${sha.toLowerCase()}`;
    const list = this.statuses.get(key) ?? [];
    if (list.filter((s) => s.context === context).length >= MAX_STATUSES_PER_CONTEXT) {
      return this.send(
        req,
        res,
        422,
        invalid('context', 'custom', 'This SHA and context has reached the maximum number of statuses.'),
      );
    }
    const status: FakeStatus = {
      id: this.nextId++,
      state: String(state),
      context,
      description,
      target_url: typeof input.target_url === 'string' ? input.target_url : null,
      created_at: new Date(this.now()).toISOString(),
    };
    this.statuses.set(key, [...list, status]);
    this.send(req, res, 201, status);
  }

  /** `POST /repos/{o}/{r}/pulls` `{title, head, base}`: 422 unless both branches exist and differ. */
  private openPull(req: IncomingMessage, res: ServerResponse, repository: string, body: unknown): void {
    const { title, head, base } = (body ?? {}) as Record<string, unknown>;
    const sha = typeof head === 'string' ? this.options.branchHead?.(repository, head) : undefined;
    const baseSha = typeof base === 'string' ? this.options.branchHead?.(repository, base) : undefined;
    if (typeof title !== 'string' || !title || !sha || !baseSha || head === base) {
      return this.send(req, res, 422, invalid('head', 'invalid', 'Validation Failed'));
    }
    const number = Math.max(0, ...(this.pulls.get(repository) ?? [])) + 1;
    this.addPull(repository, number);
    const url = `https://github.com/${repository}/pull/${number}`;
    this.send(req, res, 201, {
      number,
      html_url: url,
      state: 'open',
      title,
      head: { ref: head, sha },
      base: { ref: base, sha: baseSha },
    });
  }

  private tokenValid(token: string): boolean {
    if (!this.tokens.has(token)) return false;
    const expires = this.tokens.get(token);
    return expires === undefined || expires > this.now();
  }

  private mintToken(req: IncomingMessage, res: ServerResponse, jwt: string | undefined, installation: number): void {
    const app = jwt ? verifyAppJwt(jwt, this.apps, this.now()) : 'A JSON web token could not be decoded';
    if (typeof app === 'string') return this.send(req, res, 401, { message: app });
    if (!app.installations.has(installation)) return this.send(req, res, 404, { message: 'Not Found' });
    const token = `ghs_${randomBytes(18).toString('hex')}`;
    const expiresAt = this.now() + 3_600_000;
    this.tokens.set(token, expiresAt);
    this.send(req, res, 201, {
      token,
      expires_at: new Date(expiresAt).toISOString(),
      permissions: { statuses: 'write' },
    });
  }

  private send(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
    const request = { method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0], status };
    this.requests.push(request);
    this.onRequest?.(request);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  }
}
