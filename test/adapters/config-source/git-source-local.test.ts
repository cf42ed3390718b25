import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createConfigSources } from '../../../lambdas/adapters/config-source/create-config-sources';
import { GitSource } from '../../../lambdas/adapters/config-source/git-source';
import { ConfigError } from '../../../lambdas/shared/errors';
import { createBareRepo } from '../../support/git-server';
import type { TestRepo } from '../../support/git-server';

describe('GitSource over file:// (NAME:git:file:///path)', () => {
  let root: string;
  let repo: TestRepo;
  let first: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'clm-git-local-'));
    repo = createBareRepo(root, 'cluster-config');
    first = repo.commit({ 'cluster/cluster.yaml': 'v: 1\n', '.hidden': 'x' }, 'first');
    repo.tag('v1');
    repo.commit({ 'cluster/cluster.yaml': 'v: beta\n' }, 'on beta', 'beta');
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const local = (path: string) =>
    new GitSource({ name: 'main', url: pathToFileURL(path).href, workdir: join(root, 'work') });

  it('reads a bare repository in place: branches, tags, files', async () => {
    const source = local(repo.bareDir);
    expect(source.gitdir).toBe(repo.bareDir);
    expect(await source.resolveVersion('main')).toBe(first);
    expect(await source.resolveVersion('refs/heads/beta')).toBe(repo.revParse('beta'));
    expect(await source.resolveVersion('v1')).toBe(first);
    const snapshot = await source.checkout(first);
    expect([...snapshot.files]).toEqual([['cluster/cluster.yaml', 'v: 1\n']]);
  });

  it('sees a push at once, with no fetch', async () => {
    const source = new GitSource({ name: 'main', url: pathToFileURL(repo.bareDir).href, fetchTtlMs: 60_000 });
    expect(await source.resolveVersion('main')).toBe(repo.revParse('main'));
    const pushed = repo.commit({ 'cluster/cluster.yaml': 'v: 2\n' }, 'second');
    expect(await source.resolveVersion('main')).toBe(pushed);
    expect((await source.checkout(pushed)).files.get('cluster/cluster.yaml')).toBe('v: 2\n');
  });

  it("reads a work tree's .git", async () => {
    const source = local(join(root, 'cluster-config-work'));
    expect(source.gitdir).toBe(join(root, 'cluster-config-work', '.git'));
    expect(await source.resolveVersion('beta')).toBe(repo.revParse('beta'));
  });

  it('says so when the path is not a repository, or the ref is unknown', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty, { recursive: true });
    await expect(local(empty).resolveVersion('main')).rejects.toThrow(ConfigError);
    await expect(local(empty).resolveVersion('main')).rejects.toThrow(/is not a git repository/);
    await expect(local(repo.bareDir).resolveVersion('mian')).rejects.toThrow(/unknown ref "mian"/);
  });

  it('is what createConfigSources opens for a file:// git source', async () => {
    const [source] = createConfigSources([{ name: 'main', kind: 'git', location: pathToFileURL(repo.bareDir).href }], {
      cwd: root,
    });
    expect(source).toBeInstanceOf(GitSource);
    expect(await source.resolveVersion('main')).toBe(repo.revParse('main'));
  });
});
