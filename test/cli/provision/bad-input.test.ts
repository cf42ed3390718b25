import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../../lambdas/cli/main';
import type { CliIo } from '../../../lambdas/cli/io';

const ROOT = resolve(__dirname, '../../..');

async function provision(...args: string[]): Promise<{ code: number; err: string }> {
  const io: CliIo & { err: string } = {
    err: '',
    cwd: ROOT,
    stdout: () => undefined,
    stderr: (t) => void (io.err += t),
  };
  const code = await main(['provision', '--simulate', '--directory', 'examples/config', ...args], io);
  return { code, err: io.err };
}

describe('clm provision refuses bad input with a message, changing nothing', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'clm-bad-input-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an empty or comment-only clusters.yaml: "no clusters", exit 2, no state written', async () => {
    const registry = join(dir, 'clusters.yaml');
    writeFileSync(registry, '# the clusters go here\n');
    const run = await provision('--registry', registry, '--state', join(dir, 'state'));
    expect(run).toEqual({ code: 2, err: expect.stringContaining(`no clusters: file://${registry} lists none`) });
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });

  it('--state naming a file: says so, and leaves the file alone', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'keep me');
    const run = await provision('--registry', 'examples/clusters.yaml', '--state', file);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`--state ${file}: ${file} is a file`);
    expect(run.err).not.toContain('    at ');
    expect(readFileSync(file, 'utf8')).toBe('keep me');
  });

  it('a missing --scenario file: names it, no stack trace, no state written', async () => {
    const run = await provision(
      '--registry',
      'examples/clusters.yaml',
      '--state',
      join(dir, 'state'),
      '--scenario',
      'nope.yaml',
    );
    expect(run.code).toBe(2);
    expect(run.err).toContain('--scenario nope.yaml: no such file');
    expect(run.err).not.toContain('    at ');
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });
});
