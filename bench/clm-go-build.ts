/**
 * Zalando's CLM (Go) built from its source with our render harness (bench/clm-go/), for `npm run bench -- vs-clm`.
 *
 * Where the source comes from (environment):
 *   CLM_GO_SOURCE  a local checkout of github.com/zalando-incubator/cluster-lifecycle-manager (a git work tree, or a
 *                  plain copy, built as it is), or a git URL; default the public repository on GitHub
 *   CLM_GO_REF     the commit to build from a git source (default 9b818dd, the commit this project re-builds)
 * Go comes from PATH (its modules from the Go module proxy, GOPROXY as set). Everything built is cached under
 * `$CLM_CACHE_DIR/clm-go` (default `<repo>/.cache/clm-go`, as the integration suite): the clone, Go's module and
 * build caches, and the harness binary, one per commit, harness source and Go version; nothing is written into the
 * repository. When any of it fails the answer says why, and the bench prints no ratio.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const HARNESS_DIR = join(ROOT, 'bench', 'clm-go');
export const CLM_GO_DEFAULT_SOURCE = 'https://github.com/zalando-incubator/cluster-lifecycle-manager.git';
export const CLM_GO_DEFAULT_REF = '9b818dd263eeff02f3235fb0d17670cc44d364b8';

export type ClmBuild =
  | { readonly binary: string; readonly commit: string; readonly goVersion: string; readonly source: string }
  | { readonly reason: string };

interface Run {
  readonly ok: boolean;
  readonly out: string;
}

function run(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Run {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) return { ok: false, out: result.error.message };
  return { ok: result.status === 0, out: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

function tail(text: string, lines = 15): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}

/** The cache root, as test/integration/run.sh has it. */
export function clmCacheDir(): string {
  return resolve(process.env.CLM_CACHE_DIR ?? join(ROOT, '.cache'));
}

/**
 * The harness binary, built when it is not cached yet (a first build downloads CLM's modules: some minutes), or the
 * reason it cannot be. `log` receives progress lines.
 */
export function buildClmHarness(log: (line: string) => void = () => undefined): ClmBuild {
  const go = run('go', ['env', 'GOVERSION']);
  if (!go.ok) return { reason: `no Go toolchain on PATH (go env GOVERSION: ${tail(go.out, 2) || 'not found'})` };
  const goVersion = go.out.trim();
  const cache = join(clmCacheDir(), 'clm-go');
  mkdirSync(cache, { recursive: true });
  const source = process.env.CLM_GO_SOURCE || CLM_GO_DEFAULT_SOURCE;
  const ref = process.env.CLM_GO_REF || CLM_GO_DEFAULT_REF;

  const harness = ['harness.go', 'main.go'].map((f) => readFileSync(join(HARNESS_DIR, f), 'utf8'));
  const key = createHash('sha256').update(goVersion).update(harness.join('\0')).digest('hex').slice(0, 12);

  const resolved = resolveSource(cache, source, ref, log);
  if ('reason' in resolved) return resolved;
  const { commit, repo, local } = resolved;
  const binary = join(cache, 'bin', `clm-render-harness-${commit.slice(0, 12)}-${key}`);
  const built = { binary, commit, goVersion, source: local ?? source };
  // A plain directory may change under the same name: always rebuilt (Go's build cache keeps that quick).
  if (commit !== 'worktree' && existsSync(binary)) return built;

  const work = join(cache, 'build', commit.slice(0, 12));
  const prepared = exportSource(work, repo ?? local!, repo ? commit : undefined);
  if (prepared) return prepared;
  writeFileSync(join(work, 'provisioner', 'zz_clm_bench_harness.go'), harness[0]);
  mkdirSync(join(work, 'cmd', 'clm-render-harness'), { recursive: true });
  writeFileSync(join(work, 'cmd', 'clm-render-harness', 'main.go'), harness[1]);

  log(`building Zalando CLM ${commit.slice(0, 12)} with the render harness (${goVersion}; modules via the Go proxy)`);
  mkdirSync(dirname(binary), { recursive: true });
  const started = Date.now();
  const build = run('go', ['build', '-trimpath', '-o', `${binary}.tmp`, './cmd/clm-render-harness'], {
    cwd: work,
    env: {
      ...process.env,
      GOMODCACHE: process.env.GOMODCACHE ?? join(cache, 'gomod'),
      GOCACHE: process.env.GOCACHE ?? join(cache, 'gocache'),
      GOFLAGS: '-mod=mod',
    },
  });
  writeFileSync(join(cache, 'build.log'), build.out);
  if (!build.ok) return { reason: `go build of CLM failed (log: ${join(cache, 'build.log')}):\n${tail(build.out)}` };
  renameSync(`${binary}.tmp`, binary);
  log(`built ${binary} in ${Math.round((Date.now() - started) / 1000)} s`);
  return built;
}

/** Where the source is: a git repository (local, or the clone of a URL) at `ref`, or a plain directory. */
function resolveSource(
  cache: string,
  source: string,
  ref: string,
  log: (line: string) => void,
): { commit: string; repo?: string; local?: string } | { reason: string } {
  const local = existsSync(source) && statSync(source).isDirectory() ? resolve(source) : undefined;
  if (local && !run('git', ['-C', local, 'rev-parse', '--is-inside-work-tree']).ok)
    return { commit: 'worktree', local };
  const repo = local ?? join(cache, 'repo');
  if (!local) {
    const fetched = fetchCommit(repo, source, ref, log);
    if ('reason' in fetched) return fetched;
  }
  const resolved = run('git', ['-C', repo, 'rev-parse', '--verify', `${ref}^{commit}`]);
  if (!resolved.ok) return { reason: `commit ${ref} is not in ${local ?? source} (CLM_GO_REF)` };
  return { commit: resolved.out.trim(), repo, ...(local ? { local } : {}) };
}

/** CLM's source into a fresh `work`: `commit` of the repository `from`, or the directory `from` as it is. */
function exportSource(work: string, from: string, commit: string | undefined): { reason: string } | undefined {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  if (commit) {
    const archive = spawnSync('git', ['-C', from, 'archive', '--format=tar', commit], { maxBuffer: 1 << 30 });
    if (archive.status !== 0) return { reason: `git archive ${commit} failed: ${tail(String(archive.stderr))}` };
    const untar = spawnSync('tar', ['-x', '-C', work], { input: archive.stdout });
    if (untar.status !== 0) return { reason: `tar failed: ${tail(String(untar.stderr))}` };
  } else {
    cpSync(from, work, { recursive: true, filter: (path) => !path.split(/[\\/]/).includes('.git') });
  }
  if (!existsSync(join(work, 'provisioner', 'template.go')) || !existsSync(join(work, 'go.mod')))
    return { reason: `${from} is not CLM's source (no go.mod, provisioner/template.go)` };
  return undefined;
}

/** `ref` of `url` in the bare-ish clone `repo` (created when missing): fetched once, then found locally. */
function fetchCommit(
  repo: string,
  url: string,
  ref: string,
  log: (line: string) => void,
): { ok: true } | { reason: string } {
  if (!existsSync(join(repo, 'HEAD'))) {
    const init = run('git', ['init', '--quiet', '--bare', repo]);
    if (!init.ok) return { reason: `git init ${repo} failed: ${tail(init.out)}` };
  }
  if (run('git', ['-C', repo, 'rev-parse', '--verify', `${ref}^{commit}`]).ok) return { ok: true };
  log(`fetching ${url} ${ref}`);
  // A commit by its id (GitHub serves that shallowly); else the whole history of the branches and tags.
  if (run('git', ['-C', repo, 'fetch', '--quiet', '--depth', '1', url, ref]).ok) return { ok: true };
  const fetched = run('git', [
    '-C',
    repo,
    'fetch',
    '--quiet',
    url,
    '+refs/heads/*:refs/heads/*',
    '+refs/tags/*:refs/tags/*',
  ]);
  if (!fetched.ok)
    return { reason: `cannot fetch ${ref} from ${url} (CLM_GO_SOURCE; no network?): ${tail(fetched.out, 3)}` };
  return { ok: true };
}
