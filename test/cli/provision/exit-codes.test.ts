import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { exitCodeOf } from '../../../lambdas/cli/commands/provision-run';
import { main } from '../../../lambdas/cli/main';
import type { CliIo } from '../../../lambdas/cli/io';

const ROOT = resolve(__dirname, '../../..');
const KUBE_TEST = 'aws:123456789012:eu-central-1:kube-test';

function capture(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    cwd: ROOT,
    stdout: (text: string) => void (io.out += text),
    stderr: (text: string) => void (io.err += text),
  };
  return io;
}

describe('clm provision exit codes', () => {
  it('fails over skipped, skipped over succeeded and unchanged', () => {
    expect(exitCodeOf([{ status: 'succeeded' }, { status: 'unchanged' }])).toBe(0);
    expect(exitCodeOf([{ status: 'succeeded' }, { status: 'skipped' }])).toBe(3);
    expect(exitCodeOf([{ status: 'skipped' }, { status: 'failed' }])).toBe(1);
    expect(exitCodeOf([])).toBe(0);
  });

  it('exits 3 when cluster_update_block skips the cluster, and changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clm-exit-'));
    try {
      const registry = join(dir, 'clusters.yaml');
      const text = readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8');
      const blocked = text.replace(
        '      team: platform\n',
        '      team: platform\n      cluster_update_block: "migration in progress"\n',
      );
      expect(blocked).not.toBe(text);
      writeFileSync(registry, blocked);
      const io = capture();
      const args = ['provision', '--simulate', '--registry', registry, '--directory', 'examples/config'];
      const code = await main([...args, '--cluster', KUBE_TEST, '--state', join(dir, 'state'), '--output', 'json'], io);
      const [summary] = (JSON.parse(io.out) as { clusters: { status: string; message: string; version: string }[] })
        .clusters;
      expect({ code, status: summary!.status, version: summary!.version }).toEqual({
        code: 3,
        status: 'skipped',
        version: '',
      });
      expect(summary!.message).toContain('migration in progress');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
