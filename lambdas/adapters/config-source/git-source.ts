import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type IsomorphicGit from 'isomorphic-git';
import type { HttpClient } from 'isomorphic-git';
import type { ConfigSnapshot, ConfigSource } from '../../ports/config-source';
import { ConfigError, TransientApiError } from '../../shared/errors';
import { silentLogger } from '../registry/registry-logger';
import { isLocalGitUrl, localGitdir, maskCredentials, mirrorName } from './git-urls';
import { localHeads, serverHeads } from './git-heads';
import { networkCode } from './git-network-errors';
import type { AdapterLogger } from '../registry/registry-logger';

export interface GitSourceOptions {
  readonly name: string;
  /** HTTP(S) URL of the repository, or `file:///path` of one on this machine (read in place, never fetched). */
  readonly url: string;
  /** Where mirrors live (`--workdir`). @default `<os tmpdir>/clm-workdir` */
  readonly workdir?: string;
  /** Access token, sent on every request; never logged. */
  readonly token?: string;
  /** `basic`: HTTP Basic `x-access-token:<token>` (GitHub, GitLab); `bearer`: `Authorization: Bearer <token>`. @default 'basic' */
  readonly tokenType?: 'basic' | 'bearer';
  /** A fetch younger than this is reused by `resolveVersion`. `refresh()` always fetches. @default 5000 */
  readonly fetchTtlMs?: number;
  /** Per HTTP request. @default 60000 */
  readonly timeoutMs?: number;
  readonly logger?: AdapterLogger;
  /** @default Date.now */
  readonly now?: () => number;
  /** @default isomorphic-git's node client */
  readonly http?: HttpClient;
}

const FULL_SHA = /^[0-9a-f]{40}$/i;
const SHORT_SHA = /^[0-9a-f]{4,39}$/i;
const SYMLINK_MODE = 0o120000;

/**
 * A git repository over HTTP(S) as config source (`NAME:git:URL`), with isomorphic-git: no `git` binary.
 *
 * A bare mirror lives in `<workdir>/<repo name>-<8 hex of the URL's sha256>` (the hash keeps two sources
 * with the same repository name apart) and is fetched incrementally: all branches (as
 * `refs/remotes/origin/*`) and tags, pruned. `resolveVersion(channel)` fetches (unless the last fetch is
 * younger than `fetchTtlMs`), then resolves like `git rev-parse`: a full SHA, a tag, a branch, a full ref
 * name (`refs/heads/x`, `refs/tags/x`) or an abbreviated SHA; annotated tags are peeled to their commit.
 * `checkout(sha)` reads the commit's tree straight from the object store (no working tree), skipping
 * entries whose name starts with a dot (as the directory source does), symlinks and submodules.
 *
 * A `file://` URL names a repository on this machine (bare, or a work tree's `.git`): it is read in
 * place, so a `git push` to it is seen at once; branches are its own `refs/heads/*`.
 *
 * Errors: unknown ref, authentication failure, repository not found → ConfigError; server unreachable,
 * timeouts, 5xx → TransientApiError (retryable). Messages name the source and its URL (credentials in
 * the URL are masked), never the token.
 */
export class GitSource implements ConfigSource {
  readonly kind = 'git' as const;
  readonly name: string;
  readonly location: string;
  /** The bare mirror. */
  readonly gitdir: string;
  private readonly options: GitSourceOptions;
  private readonly http: HttpClient;
  private readonly logger: AdapterLogger;
  private readonly now: () => number;
  private lastFetchAt?: number;
  /** `refs/remotes/origin/` for a mirror, `refs/heads/` for a repository read in place. */
  private readonly branches: string;
  private fetching?: Promise<void>;

  constructor(options: GitSourceOptions) {
    this.options = options;
    this.name = options.name;
    this.location = maskCredentials(options.url);
    const local = isLocalGitUrl(options.url);
    this.gitdir = local
      ? localGitdir(options.url)
      : join(options.workdir ?? join(tmpdir(), 'clm-workdir'), mirrorName(options.url));
    this.branches = local ? 'refs/heads/' : 'refs/remotes/origin/';
    this.logger = options.logger ?? silentLogger;
    this.now = options.now ?? Date.now;
    const base = options.http ?? lazyNodeHttp;
    const timeoutMs = options.timeoutMs ?? 60_000;
    this.http = {
      request: (request) => base.request({ ...request, signal: request.signal ?? AbortSignal.timeout(timeoutMs) }),
    };
  }

  async resolveVersion(channel: string): Promise<string> {
    const fresh = this.lastFetchAt !== undefined && this.now() - this.lastFetchAt < (this.options.fetchTtlMs ?? 5000);
    if (!fresh) await this.refresh();
    const sha = await this.resolveLocal(channel);
    if (!sha) {
      throw new ConfigError(
        `config source ${this.name} (${this.location}): unknown ref ${JSON.stringify(channel)}: no branch, tag or commit of that name`,
      );
    }
    return sha;
  }

  async checkout(version: string): Promise<ConfigSnapshot> {
    const git = await isoGit();
    if (!FULL_SHA.test(version)) {
      throw new ConfigError(
        `config source ${this.name} (${this.location}): cannot check out ${JSON.stringify(version)}: expected a 40-character commit SHA from resolveVersion`,
      );
    }
    const sha = version.toLowerCase();
    if (!(await this.hasCommit(sha))) {
      await this.refresh();
      if (!(await this.hasCommit(sha))) {
        throw new ConfigError(
          `config source ${this.name} (${this.location}): commit ${sha} is not on any branch or tag of the repository`,
        );
      }
    }
    const files = new Map<string, string>();
    await git.walk({
      fs,
      gitdir: this.gitdir,
      trees: [git.TREE({ ref: sha })],
      map: async (filepath, [entry]) => {
        if (filepath === '.' || !entry) return true;
        const base = filepath.slice(filepath.lastIndexOf('/') + 1);
        if (base.startsWith('.')) return null;
        const type = await entry.type();
        if (type === 'tree') return true;
        if (type !== 'blob') return null; // a submodule
        if ((await entry.mode()) === SYMLINK_MODE) {
          this.logger.debug(`Skipping symlink ${filepath} in config source ${this.name}`);
          return null;
        }
        const content = await entry.content();
        files.set(filepath, Buffer.from(content ?? new Uint8Array()).toString('utf8'));
        return true;
      },
    });
    return { sourceName: this.name, version: sha, files };
  }

  /** As `git ls-remote`: one GET of the server's ref advertisement; a `file://` repository's own refs. */
  async listHeads(): Promise<ReadonlyMap<string, string>> {
    const git = await isoGit();
    if (this.branches === 'refs/heads/') {
      await this.checkLocal();
      return localHeads(git, this.gitdir, (oid, tag) => this.peel(oid, tag));
    }
    const remote = { http: this.http, url: this.options.url, headers: this.authHeaders() };
    return serverHeads(git, remote).catch((error: unknown) => Promise.reject(this.translate(error)));
  }

  /** Fetch now (concurrent callers share one fetch). */
  async refresh(): Promise<void> {
    if (!this.fetching) {
      this.fetching = this.fetchAll().finally(() => {
        this.fetching = undefined;
      });
    }
    return this.fetching;
  }

  private async fetchAll(): Promise<void> {
    const git = await isoGit();
    if (this.branches === 'refs/heads/') return this.checkLocal();
    await this.ensureMirror();
    this.logger.debug(`Fetching config source ${this.name} from ${this.location}`);
    try {
      await git.fetch({
        fs,
        http: this.http,
        gitdir: this.gitdir,
        remote: 'origin',
        singleBranch: false,
        tags: true,
        prune: true,
        pruneTags: true,
        headers: this.authHeaders(),
        onAuthFailure: () => ({ cancel: true }),
      });
    } catch (error) {
      throw this.translate(error);
    }
    this.lastFetchAt = this.now();
  }

  private async checkLocal(): Promise<void> {
    if (!fs.existsSync(join(this.gitdir, 'HEAD')) || !fs.existsSync(join(this.gitdir, 'objects'))) {
      throw new ConfigError(`config source ${this.name} (${this.location}): ${this.gitdir} is not a git repository`);
    }
    this.lastFetchAt = this.now();
  }

  private async ensureMirror(): Promise<void> {
    const git = await isoGit();
    if (fs.existsSync(join(this.gitdir, 'config'))) return;
    await fs.promises.mkdir(this.gitdir, { recursive: true });
    await git.init({ fs, gitdir: this.gitdir, bare: true });
    await git.addRemote({ fs, gitdir: this.gitdir, remote: 'origin', url: this.options.url, force: true });
  }

  private authHeaders(): Record<string, string> {
    const token = this.options.token;
    if (!token) return {};
    if (this.options.tokenType === 'bearer') return { authorization: `Bearer ${token}` };
    return { authorization: `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}` };
  }

  private async resolveLocal(channel: string): Promise<string | undefined> {
    const git = await isoGit();
    if (channel === '') return undefined;
    if (FULL_SHA.test(channel))
      return (await this.hasCommit(channel.toLowerCase())) ? channel.toLowerCase() : undefined;
    const candidates = [`refs/tags/${channel}`, `${this.branches}${channel}`];
    if (channel.startsWith('refs/heads/')) candidates.unshift(`${this.branches}${channel.slice('refs/heads/'.length)}`);
    else if (channel.startsWith('refs/')) candidates.unshift(channel);
    for (const ref of candidates) {
      let oid: string;
      try {
        oid = await git.resolveRef({ fs, gitdir: this.gitdir, ref });
      } catch {
        continue;
      }
      return this.peel(oid, channel);
    }
    if (SHORT_SHA.test(channel)) {
      try {
        return await this.peel(await git.expandOid({ fs, gitdir: this.gitdir, oid: channel.toLowerCase() }), channel);
      } catch (error) {
        if ((error as { code?: string }).code === 'AmbiguousError') {
          throw new ConfigError(
            `config source ${this.name} (${this.location}): ${JSON.stringify(channel)} is an ambiguous abbreviated SHA; give more characters`,
          );
        }
        return undefined;
      }
    }
    return undefined;
  }

  /** Follow annotated tags to the commit. */
  private async peel(oid: string, channel: string): Promise<string> {
    const git = await isoGit();
    let current = oid;
    for (let depth = 0; depth < 10; depth++) {
      const object = await git.readObject({ fs, gitdir: this.gitdir, oid: current, format: 'parsed' });
      if (object.type === 'commit') return current;
      if (object.type !== 'tag') break;
      current = (object.object as { object: string }).object;
    }
    throw new ConfigError(
      `config source ${this.name} (${this.location}): ref ${JSON.stringify(channel)} does not point to a commit`,
    );
  }

  private async hasCommit(sha: string): Promise<boolean> {
    const git = await isoGit();
    try {
      await git.readCommit({ fs, gitdir: this.gitdir, oid: sha });
      return true;
    } catch {
      return false;
    }
  }

  private translate(error: unknown): Error {
    const code = (error as { code?: string }).code ?? '';
    const statusCode = (error as { data?: { statusCode?: number } }).data?.statusCode;
    const where = `config source ${this.name} (${this.location})`;
    if (code === 'UserCanceledError' || statusCode === 401 || statusCode === 403) {
      return new ConfigError(
        `${where}: authentication failed (HTTP ${statusCode ?? 401}); check the token has read access to the repository`,
        { cause: error },
      );
    }
    if (statusCode === 404) return new ConfigError(`${where}: repository not found (HTTP 404)`, { cause: error });
    if (statusCode !== undefined && statusCode >= 500)
      return new TransientApiError(`${where}: the git server failed (HTTP ${statusCode})`, { cause: error });
    const network = networkCode(error);
    if (network) return new TransientApiError(`${where}: cannot reach the git server: ${network}`, { cause: error });
    const message = this.redact((error as Error).message ?? String(error));
    return new ConfigError(`${where}: fetch failed: ${message}`, { cause: error });
  }

  private redact(text: string): string {
    const token = this.options.token;
    return token ? text.split(token).join('***') : text;
  }
}

// isomorphic-git and its HTTP client load on first use: a run that reads only directory sources never pays for them.
let gitModule: Promise<typeof IsomorphicGit> | undefined;
function isoGit(): Promise<typeof IsomorphicGit> {
  gitModule ??= import('isomorphic-git').then((m) => m.default);
  return gitModule;
}
const lazyNodeHttp: HttpClient = {
  request: async (request) => (await import('isomorphic-git/http/node')).default.request(request),
};
