import fs, {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectorySource } from '../../../lambdas/adapters/config-source/directory-source';
import { ConfigError } from '../../../lambdas/shared/errors';

describe('DirectorySource', () => {
  let root: string;
  let source: DirectorySource;

  function write(path: string, content: string): void {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'clm-dir-source-'));
    write('cluster/cluster.yaml', 'Resources: {}\n');
    write('cluster/manifests/01-a/deployment.yaml', 'kind: Deployment\n');
    write('cluster/config-defaults.yaml', 'foo: bar\n');
    source = new DirectorySource({ name: 'main', path: root, displayPath: './config' });
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('has a content version of the form dir-<12 hex> that ignores the channel', async () => {
    const version = await source.resolveVersion('main');
    expect(version).toMatch(/^dir-[0-9a-f]{12}$/);
    expect(await source.resolveVersion('some-other-channel')).toBe(version);
  });

  it('keeps its version while nothing changes, and changes it on edits, additions, renames and removals', async () => {
    const v0 = await source.resolveVersion('main');
    expect(await source.resolveVersion('main')).toBe(v0);

    write('cluster/config-defaults.yaml', 'foo: baz\n');
    const v1 = await source.resolveVersion('main');
    write('cluster/manifests/02-b/x.yaml', 'kind: ConfigMap\n');
    const v2 = await source.resolveVersion('main');
    rmSync(join(root, 'cluster/manifests/02-b'), { recursive: true });
    write('cluster/manifests/02-c/x.yaml', 'kind: ConfigMap\n');
    const v3 = await source.resolveVersion('main');
    rmSync(join(root, 'cluster/manifests/02-c'), { recursive: true });

    expect(new Set([v0, v1, v2, v3]).size).toBe(4);
    expect(await source.resolveVersion('main')).toBe(v1);
  });

  it('checks out every file by posix path, skipping dot entries', async () => {
    write('.git/HEAD', 'ref: refs/heads/main\n');
    write('.github/workflows/ci.yaml', 'on: push\n');
    write('cluster/.swp', 'x');
    const version = await source.resolveVersion('main');

    const snapshot = await source.checkout(version);

    expect(snapshot.sourceName).toBe('main');
    expect(snapshot.version).toBe(version);
    expect([...snapshot.files.keys()].sort()).toEqual([
      'cluster/cluster.yaml',
      'cluster/config-defaults.yaml',
      'cluster/manifests/01-a/deployment.yaml',
    ]);
    expect(snapshot.files.get('cluster/config-defaults.yaml')).toBe('foo: bar\n');
  });

  it('does not change its version for dot files', async () => {
    const before = await source.resolveVersion('main');
    write('.git/index', 'binary');
    expect(await source.resolveVersion('main')).toBe(before);
  });

  it('follows symlinks within the directory and survives a link cycle', async () => {
    write('shared/values.yaml', 'a: 1\n');
    symlinkSync(join(root, 'shared'), join(root, 'cluster', 'shared'));
    symlinkSync('../config-defaults.yaml', join(root, 'cluster', 'manifests', 'defaults.yaml'));
    symlinkSync(root, join(root, 'cluster', 'loop'));

    const snapshot = await source.checkout(await source.resolveVersion('main'));

    expect(snapshot.files.get('cluster/shared/values.yaml')).toBe('a: 1\n');
    expect(snapshot.files.get('cluster/manifests/defaults.yaml')).toBe('foo: bar\n');
    expect([...snapshot.files.keys()].some((k) => k.includes('loop/loop'))).toBe(false);
  });

  it.each([
    ['a file', 'secret.txt', 'cluster/manifests/01-a/secret.yaml'],
    ['a directory', '.', 'cluster/manifests/02-elsewhere'],
  ])('refuses a symlink to %s outside the directory, naming the link and its target', async (_what, name, link) => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'clm-dir-elsewhere-'));
    try {
      writeFileSync(join(elsewhere, 'secret.txt'), 'not config\n');
      const target = realpathSync(join(elsewhere, name));
      symlinkSync(target, join(root, link));

      const resolving = source.resolveVersion('main');

      await expect(resolving).rejects.toThrow(ConfigError);
      await expect(resolving).rejects.toThrow(
        `config source main (./config): ${link} is a symlink to ${target}, outside the directory; refused`,
      );
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('refuses a symlink that leaves the directory through another link', async () => {
    const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'clm-dir-elsewhere-')));
    try {
      writeFileSync(join(elsewhere, 'values.yaml'), 'a: 1\n');
      symlinkSync(join(elsewhere, 'values.yaml'), join(root, 'cluster', 'out.yaml'));
      symlinkSync('out.yaml', join(root, 'cluster', 'relay.yaml'));

      await expect(source.resolveVersion('main')).rejects.toThrow(
        `is a symlink to ${join(elsewhere, 'values.yaml')}, outside the directory`,
      );
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('refuses to check out a version the directory no longer has', async () => {
    const version = await source.resolveVersion('main');
    write('cluster/cluster.yaml', 'Resources: {changed: true}\n');
    await expect(source.checkout(version)).rejects.toThrow(ConfigError);
    await expect(source.checkout(version)).rejects.toThrow(
      new RegExp(`^config source main \\(\\./config\\): the directory changed after version ${version} was resolved`),
    );
  });

  describe('a checkout right after the version was resolved', () => {
    /** Every file modified a minute ago: outside the window in which a modification may not change the time. */
    function settle(): void {
      const past = new Date(Date.now() - 60_000);
      for (const entry of readdirSync(root, { recursive: true, withFileTypes: true }))
        if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), past, past);
    }
    afterEach(() => jest.restoreAllMocks());

    it('takes the files read for the version when none changed, reading none again', async () => {
      settle();
      const version = await source.resolveVersion('main');
      const reads = jest.spyOn(fs, 'readFileSync');
      const asyncReads = jest.spyOn(fs.promises, 'readFile');

      const snapshot = await source.checkout(version);

      expect(reads).not.toHaveBeenCalled();
      expect(asyncReads).not.toHaveBeenCalled();
      expect(snapshot.files.get('cluster/config-defaults.yaml')).toBe('foo: bar\n');
    });

    it('sees a change of the same size, by its modification time', async () => {
      settle();
      const version = await source.resolveVersion('main');
      write('cluster/config-defaults.yaml', 'foo: baz\n');

      await expect(source.checkout(version)).rejects.toThrow(/the directory changed after version/);
    });

    it('sees a change of the same size that kept the modification time (a file modified just before the read)', async () => {
      const file = join(root, 'cluster/config-defaults.yaml');
      const tick = new Date();
      utimesSync(file, tick, tick);
      const version = await source.resolveVersion('main');
      write('cluster/config-defaults.yaml', 'foo: baz\n');
      utimesSync(file, tick, tick);

      await expect(source.checkout(version)).rejects.toThrow(/the directory changed after version/);
    });
  });

  it('names the source and path when the directory is missing', async () => {
    const missing = new DirectorySource({ name: 'extra', path: join(root, 'nope'), displayPath: 'nope' });
    await expect(missing.resolveVersion('main')).rejects.toThrow(
      /^config source extra: cannot read nope \(.*nope\): no such directory$/,
    );
  });
});
