import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../lambdas/cli/main';
import { captureIo } from '../support/cli-io';

// Directory flags and the state directory: a file where a directory belongs is a usage error naming the flag, a
// command that only reads --state leaves no trace of it, and a corrupt file in it is never read around.
const ROOT = resolve(__dirname, '../..');
const CLUSTER = 'aws:123456789012:eu-central-1:kube-test';
const REGISTRY = join(ROOT, 'examples/clusters.yaml');

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'clm-state-flags-'));
  writeFileSync(join(tmp, 'a-file'), 'not a directory\n');
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

async function clm(...args: string[]) {
  const io = captureIo(tmp);
  const code = await main(args, io);
  return { code, out: io.out, err: io.err };
}

describe('directory flags', () => {
  it('stack release --to a file: a usage error naming the flag, no stack trace', async () => {
    const stacks = join(ROOT, 'examples/cluster-stacks/v3');
    const run = await clm('stack', 'release', '--stack', 'aws/default/1-30', '--to', 'a-file', '--directory', stacks);
    expect(run.code).toBe(2);
    expect(run.err).toBe(
      `error: --to a-file: ${join(tmp, 'a-file')} is a file; --to names a directory\n(run with --help for usage)\n`,
    );
  });

  it('pause --state a file: a usage error naming the flag, not ENOTDIR', async () => {
    const run = await clm('pause', CLUSTER, '--registry', REGISTRY, '--state', 'a-file');
    expect(run.code).toBe(2);
    expect(run.err).toContain(`--state a-file: ${join(tmp, 'a-file')} is a file; --state names a directory`);
    expect(run.err).not.toContain('ENOTDIR');
  });

  it('plan reads --state and does not create it', async () => {
    const run = await clm(
      ...['plan', '--simulate', '--registry', REGISTRY, '--directory', join(ROOT, 'examples/config')],
      ...['--state', 'not-there', '--cluster', CLUSTER],
    );
    expect(run.code).toBe(0);
    expect(existsSync(join(tmp, 'not-there'))).toBe(false);
  });

  it('a corrupt legacy progress.json beside the per-cluster files is refused by status and provision', async () => {
    // Arrange: a state directory with kube-test in its own file, and a broken progress.json of an older CLM
    const created = await clm(
      ...['provision', '--simulate', '--registry', REGISTRY, '--directory', join(ROOT, 'examples/config')],
      ...['--state', 'state', '--cluster', CLUSTER],
    );
    expect(created.code).toBe(0);
    writeFileSync(join(tmp, 'state/progress.json'), '{"runs": {"half');

    // Act
    const status = await clm('status', '--registry', REGISTRY, '--state', 'state', '--cluster', CLUSTER);
    const provision = await clm(
      ...['provision', '--simulate', '--registry', REGISTRY, '--directory', join(ROOT, 'examples/config')],
      ...['--state', 'state', '--cluster', CLUSTER],
    );

    // Assert
    for (const run of [status, provision]) {
      expect(run.code).toBe(1);
      expect(run.err).toContain(`${join(tmp, 'state/progress.json')}: cannot read progress`);
    }
  });
});
