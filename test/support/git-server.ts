import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * A real git smart-HTTP server on 127.0.0.1 for tests: `git http-backend` (CGI) behind node:http, serving
 * the bare repositories under `projectRoot`. Optionally requires a token, sent either as
 * `Authorization: Bearer <token>` or as HTTP Basic with the token as password (what GitHub accepts).
 * Needs the `git` binary — tests only; the runtime uses isomorphic-git.
 *
 *   const repo = createBareRepo(root, 'config');          // root/config.git
 *   const sha = repo.commit({ 'cluster/cluster.yaml': 'a: 1\n' }, 'first');
 *   const server = await startGitServer({ projectRoot: root, token: 's3cret' });
 *   …  `${server.url}/config.git`  …
 *   await server.close();
 */

export interface GitServerOptions {
  readonly projectRoot: string;
  readonly token?: string;
}

export interface GitServerRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization?: string;
  readonly status: number;
}

export interface GitServer {
  /** `http://127.0.0.1:<port>`; a repository `x.git` under the root is at `${url}/x.git`. */
  readonly url: string;
  readonly requests: GitServerRequest[];
  close(): Promise<void>;
}

export async function startGitServer(options: GitServerOptions): Promise<GitServer> {
  const requests: GitServerRequest[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const record = (status: number): void => {
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        authorization: req.headers.authorization,
        status,
      });
    };
    if (options.token !== undefined && !authorized(req.headers.authorization, options.token)) {
      record(401);
      res
        .writeHead(401, { 'www-authenticate': 'Basic realm="git"', 'content-type': 'text/plain' })
        .end('authentication required\n');
      req.resume();
      return;
    }
    runBackend(options.projectRoot, req, res, url, record);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function authorized(header: string | undefined, token: string): boolean {
  if (!header) return false;
  if (header === `Bearer ${token}`) return true;
  if (!header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1) === token;
}

function runBackend(
  root: string,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  record: (status: number) => void,
): void {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.replace(/^\?/, ''),
    REQUEST_METHOD: req.method ?? 'GET',
    REMOTE_ADDR: '127.0.0.1',
    REMOTE_USER: 'test',
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: root,
  };
  if (req.headers['content-type']) env.CONTENT_TYPE = req.headers['content-type'];
  if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];
  if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = String(req.headers['content-encoding']);
  if (req.headers['git-protocol']) env.GIT_PROTOCOL = String(req.headers['git-protocol']);

  const child = spawn('git', ['http-backend'], { env });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  req.pipe(child.stdin);
  child.on('close', () => {
    const raw = Buffer.concat(out);
    let split = raw.indexOf('\r\n\r\n');
    let gap = 4;
    if (split < 0) {
      split = raw.indexOf('\n\n');
      gap = 2;
    }
    if (split < 0) {
      record(500);
      res
        .writeHead(500, { 'content-type': 'text/plain' })
        .end(`git http-backend failed: ${Buffer.concat(err).toString()}`);
      return;
    }
    const headers: Record<string, string> = {};
    let status = 200;
    for (const line of raw.subarray(0, split).toString('utf8').split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    record(status);
    res.writeHead(status, headers).end(raw.subarray(split + gap));
  });
}

/** Fixed identity and dates so commits are reproducible. */
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.org',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.org',
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

export interface TestRepo {
  /** Path of the bare repository (`<root>/<name>.git`). */
  readonly bareDir: string;
  /** Write files (a null content deletes the file), commit on `branch` (default main) and push; returns the commit SHA. */
  commit(files: Record<string, string | null>, message: string, branch?: string): string;
  /** Create a tag at `ref` (default main) and push it. */
  tag(name: string, options?: { annotated?: boolean; ref?: string }): void;
  /** The SHA the bare repository has for a ref. */
  revParse(ref: string): string;
}

/** Create `<root>/<name>.git` (bare) with a work clone beside it, using the git CLI. */
export function createBareRepo(root: string, name: string): TestRepo {
  const bareDir = join(root, `${name}.git`);
  const workDir = join(root, `${name}-work`);
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();
  mkdirSync(bareDir, { recursive: true });
  git(bareDir, 'init', '--quiet', '--bare', '--initial-branch=main');
  mkdirSync(workDir, { recursive: true });
  git(workDir, 'init', '--quiet', '--initial-branch=main');
  git(workDir, 'remote', 'add', 'origin', bareDir);
  let tick = 0;
  let currentBranch = 'main';
  const knownBranches = new Set(['main']);
  return {
    bareDir,
    commit(files, message, branch = 'main') {
      if (branch !== currentBranch) {
        git(workDir, 'checkout', '--quiet', ...(knownBranches.has(branch) ? [branch] : ['-b', branch]));
        knownBranches.add(branch);
        currentBranch = branch;
      }
      for (const [path, content] of Object.entries(files)) {
        const absolute = join(workDir, path);
        if (content === null) {
          rmSync(absolute, { force: true });
        } else {
          mkdirSync(dirname(absolute), { recursive: true });
          writeFileSync(absolute, content);
        }
      }
      git(workDir, 'add', '--all');
      tick += 1;
      const date = `2024-01-01T00:00:${String(tick).padStart(2, '0')}Z`;
      execFileSync('git', ['commit', '--quiet', '--allow-empty', '-m', message], {
        cwd: workDir,
        env: { ...GIT_ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
      });
      git(workDir, 'push', '--quiet', 'origin', branch);
      return git(workDir, 'rev-parse', 'HEAD');
    },
    tag(tagName, options = {}) {
      git(workDir, 'tag', ...(options.annotated ? ['-a', '-m', `tag ${tagName}`] : []), tagName, options.ref ?? 'main');
      git(workDir, 'push', '--quiet', 'origin', tagName);
    },
    revParse(ref) {
      return git(bareDir, 'rev-parse', `${ref}^{commit}`);
    },
  };
}
