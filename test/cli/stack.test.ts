import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../lambdas/cli/main';
import { captureIo } from '../support/cli-io';

const ROOT = resolve(__dirname, '../..');
const STACK = 'providers/aws/default/1-30';

function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    stdio: 'ignore',
  });
}

function edit(path: string, from: string | RegExp, to: string): void {
  const text = readFileSync(path, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`nothing to replace in ${path}`);
  writeFileSync(path, next);
}

async function clm(cwd: string, ...args: string[]) {
  const io = captureIo(cwd);
  const code = await main(args, io);
  return { code, out: io.out, err: io.err };
}

describe('clm stack lint', () => {
  let repo: string;
  const file = (path: string) => join(repo, STACK, path);
  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), 'clm-stack-lint-'));
    // v1 of the example stack, with its layers as real directories, committed as the reference
    cpSync(join(ROOT, 'examples/cluster-stacks/v1'), repo, { recursive: true, dereference: true });
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'v1');
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it('is clean for the examples and for an unchanged repository', async () => {
    for (const version of ['v1', 'v2', 'v3']) {
      const result = await clm(ROOT, 'stack', 'lint', '--directory', `examples/cluster-stacks/${version}`);
      expect(result).toMatchObject({ code: 0 });
      expect(result.out).toMatch(/clean/);
    }
    expect(await clm(repo, 'stack', 'lint', '--against', 'main')).toMatchObject({ code: 0 });
  });

  it('passes a layer change with its component and stack versions bumped', async () => {
    edit(file('cluster-addon/20-web/configmap.yaml'), 'Hello from', 'Hi from');
    edit(file('metadata.yaml'), 'clusterStack: v1', 'clusterStack: v2');
    edit(file('metadata.yaml'), 'clusterAddon: v1', 'clusterAddon: v2');
    const result = await clm(repo, 'stack', 'lint', '--against', 'main');
    // examples/cluster-stacks/v1 holds aws/default/1-30 and eks/default/1-30.
    expect(result.out).toMatch(/2 cluster stack\(s\) against main: clean/);
    expect(result.code).toBe(0);
  });

  it('fails, naming the files, when a layer changed but its component version did not', async () => {
    edit(file('node-image/config-defaults.yaml'), 'ami-030a1b2c3d4e5f607', 'ami-0ffffffffffffffff');
    edit(file('metadata.yaml'), 'clusterStack: v1', 'clusterStack: v2');
    const result = await clm(repo, 'stack', 'lint', '--against', 'main');
    expect(result.code).toBe(1);
    expect(result.out).toContain(
      `layer node-image changed (${STACK}/node-image/config-defaults.yaml) but versions.components.nodeImage is still v1`,
    );
    expect(result.out).not.toMatch(/clusterStack is still/);
  });

  it('fails when a layer changed but the stack version did not (cluster-class: no component version)', async () => {
    edit(file('cluster-class/cluster.yaml'), /$/, '\n# a change\n');
    const result = await clm(repo, 'stack', 'lint', '--against', 'main');
    expect(result.code).toBe(1);
    expect(result.out).toContain(
      `layer cluster-class changed but versions.clusterStack is still v1 (${STACK}/metadata.yaml)`,
    );
  });

  it('fails when metadata.yaml is missing or malformed', async () => {
    rmSync(file('metadata.yaml'));
    mkdirSync(join(repo, 'providers/aws/other/1-31/cluster-addon'), { recursive: true });
    writeFileSync(join(repo, 'providers/aws/other/1-31/cluster-addon/a.yaml'), 'a: b\n');
    writeFileSync(
      join(repo, 'providers/aws/other/1-31/metadata.yaml'),
      'apiVersion: metadata.clusterstack.x-k8s.io/v1alpha1\nversions: {clusterStack: v1}\n',
    );
    const result = await clm(repo, 'stack', 'lint');
    expect(result.code).toBe(1);
    expect(result.out).toContain(`aws/default/1-30: ${STACK}/metadata.yaml: missing`);
    expect(result.out).toContain('providers/aws/other/1-31/metadata.yaml, field versions.components: missing');
  });

  it('follows symbolic links at the reference as in the working tree', async () => {
    // v2 with its unchanged layers as links to a shared copy inside the directory (links leaving the config directory
    // are refused): linted against a commit of itself after the shared node image changed, the change is found.
    const linked = mkdtempSync(join(tmpdir(), 'clm-stack-links-'));
    try {
      const v2 = join(linked, 'v2');
      mkdirSync(join(v2, STACK), { recursive: true });
      for (const layer of ['cluster-class', 'node-image']) {
        cpSync(join(ROOT, 'examples/cluster-stacks/v1', STACK, layer), join(v2, 'shared', layer), { recursive: true });
        symlinkSync(`../../../../shared/${layer}`, join(v2, STACK, layer));
      }
      cpSync(join(ROOT, 'examples/cluster-stacks/v2', STACK, 'cluster-addon'), join(v2, STACK, 'cluster-addon'), {
        recursive: true,
      });
      cpSync(join(ROOT, 'examples/cluster-stacks/v2', STACK, 'metadata.yaml'), join(v2, STACK, 'metadata.yaml'));
      git(linked, 'init', '-q', '-b', 'main');
      git(linked, 'add', '-A');
      git(linked, 'commit', '-qm', 'both');
      expect(await clm(linked, 'stack', 'lint', '--directory', 'v2', '--against', 'main')).toMatchObject({ code: 0 });
      edit(join(v2, 'shared/node-image/config-defaults.yaml'), 'ami-030a1b2c3d4e5f607', 'ami-0eeeeeeeeeeeeeeee');
      const result = await clm(linked, 'stack', 'lint', '--directory', 'v2', '--against', 'main');
      expect(result.code).toBe(1);
      expect(result.out).toContain('layer node-image changed');
    } finally {
      rmSync(linked, { recursive: true, force: true });
    }
  });
});

describe('clm stack release', () => {
  let out: string;
  let work: string;
  beforeEach(() => {
    out = mkdtempSync(join(tmpdir(), 'clm-stack-release-'));
    work = mkdtempSync(join(tmpdir(), 'clm-stack-work-'));
    cpSync(join(ROOT, 'examples/cluster-stacks/v2'), work, { recursive: true, dereference: true });
  });
  afterEach(() => {
    rmSync(out, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it('writes a reproducible tarball and its digest; the same content again changes nothing', async () => {
    const first = await clm(work, 'stack', 'release', '--stack', 'aws/default/1-30', '--out', out);
    expect(first.code).toBe(0);
    const tarball = join(out, 'aws/default/1-30/v2.tar.gz');
    const digest = readFileSync(join(out, 'aws/default/1-30/v2.sha256'), 'utf8').trim();
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(first.out).toContain(digest);
    const listing = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(listing).toContain('metadata.yaml');
    expect(listing).toContain('cluster-addon/20-web/configmap.yaml');
    // The same files from another directory (the examples, through their links) give the same bytes.
    const bytes = readFileSync(tarball);
    const again = await clm(
      ROOT,
      'stack',
      'release',
      '--directory',
      'examples/cluster-stacks/v2',
      '--stack',
      'aws/default/1-30',
      '--out',
      out,
    );
    expect(again.code).toBe(0);
    expect(again.out).toContain('already released, unchanged');
    expect(readFileSync(tarball).equals(bytes)).toBe(true);
  });

  it('refuses to release a version again with other content, changing nothing', async () => {
    expect((await clm(work, 'stack', 'release', '--stack', 'aws/default/1-30', '--out', out)).code).toBe(0);
    const bytes = readFileSync(join(out, 'aws/default/1-30/v2.tar.gz'));
    edit(join(work, STACK, 'cluster-addon/20-web/configmap.yaml'), 'Hi from', 'Hey from');
    const refused = await clm(work, 'stack', 'release', '--stack', 'aws/default/1-30', '--out', out);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/aws\/default\/1-30@v2 was released as sha256:[0-9a-f]{64}; this content is sha256:/);
    expect(readFileSync(join(out, 'aws/default/1-30/v2.tar.gz')).equals(bytes)).toBe(true);
  });

  it('refuses a stack without valid metadata, writing nothing', async () => {
    rmSync(join(work, STACK, 'metadata.yaml'));
    const result = await clm(work, 'stack', 'release', '--stack', 'aws/default/1-30', '--out', out);
    expect(result.code).toBe(1);
    expect(result.err).toContain(`${STACK}/metadata.yaml`);
    expect(existsSync(join(out, 'aws'))).toBe(false);
  });

  it('releases with --to DIR and prints the pin; one release store only', async () => {
    const result = await clm(work, 'stack', 'release', '--stack', 'aws/default/1-30', '--to', out);
    expect(result.code).toBe(0);
    const digest = readFileSync(join(out, 'aws/default/1-30/v2.sha256'), 'utf8').trim();
    expect(result.out).toContain(`${join(out, 'aws/default/1-30/v2.tar.gz')} ${digest}`);
    expect(result.out).toContain(`pin it: cluster_stack: aws/default/1-30, cluster_stack_version: v2@${digest}`);
    const both = await clm(work, 'stack', 'release', '--stack', 'aws/default/1-30', '--to', out, '--bucket', 'b-1');
    expect(both.code).toBe(2);
    expect(both.err).toContain('give one release store');
    const none = await clm(work, 'stack', 'release', '--stack', 'aws/default/1-30');
    expect(none.code).toBe(2);
  });
});
