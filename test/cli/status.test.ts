import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../lambdas/cli/main';
import type { CliIo } from '../../lambdas/cli/io';
import { openFileProgressStore } from '../../lambdas/adapters/progress/file-progress-store';

const ROOT = resolve(__dirname, '../..');
const KUBE_TEST = 'aws:123456789012:eu-central-1:kube-test';

function capture(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    cwd: ROOT,
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
  };
  return io;
}

describe('clm status', () => {
  let state: string;
  beforeAll(async () => {
    state = mkdtempSync(join(tmpdir(), 'clm-status-'));
    const code = await main(
      [
        'provision',
        '--simulate',
        '--registry',
        'examples/clusters.yaml',
        '--directory',
        'examples/config',
        '--cluster',
        KUBE_TEST,
        '--state',
        state,
      ],
      capture(),
    );
    expect(code).toBe(0);
  }, 60_000);
  afterAll(() => rmSync(state, { recursive: true, force: true }));

  it('reports the version the provision reached and its finished run, as JSON', async () => {
    const io = capture();

    const code = await main(
      ['status', '--registry', 'examples/clusters.yaml', '--state', state, '--cluster', KUBE_TEST, '--output', 'json'],
      io,
    );

    expect(code).toBe(0);
    const [report] = JSON.parse(io.out).clusters;
    expect(report).toMatchObject({ id: KUBE_TEST, lifecycleStatus: 'ready', nextVersion: '', problems: [] });
    expect(report.currentVersion).toMatch(/^dir-[0-9a-f]{12}#/);
    expect(report.run).toMatchObject({ action: 'provision', finished: true, targetVersion: report.currentVersion });
    expect(report.lease).toBeUndefined();
  });

  it('shows problems recorded in the progress store (the YAML registry cannot hold them)', async () => {
    const { store, save } = openFileProgressStore(state);
    await store.recordProblem(
      KUBE_TEST,
      { type: 'about:blank', title: 'StackFailedError: Stack kube-test is UPDATE_ROLLBACK_COMPLETE' },
      Date.now(),
    );
    save();
    const io = capture();

    await main(['status', '--registry', 'examples/clusters.yaml', '--state', state, '--cluster', KUBE_TEST], io);

    expect(io.out).toContain('problem: StackFailedError: Stack kube-test is UPDATE_ROLLBACK_COMPLETE');
  });

  it('an unknown cluster is a usage error (exit 2)', async () => {
    const io = capture();
    expect(
      await main(
        ['status', '--registry', 'examples/clusters.yaml', '--state', state, '--cluster', 'aws:1:nowhere'],
        io,
      ),
    ).toBe(2);
    expect(io.err).toMatch(/aws:1:nowhere/);
  });

  it.each(['null', '{"statuses": {'])(
    'a progress file holding %s is refused with a message naming it, not shown as "never provisioned"',
    async (text) => {
      const broken = mkdtempSync(join(tmpdir(), 'clm-status-broken-'));
      try {
        const file = join(broken, 'progress.json');
        writeFileSync(file, text);
        const io = capture();

        const code = await main(['status', '--registry', 'examples/clusters.yaml', '--state', broken], io);

        expect(code).toBe(1);
        expect(io.out).toBe('');
        expect(io.err).toContain(`${file}: `);
        expect(io.err).not.toContain('    at ');
      } finally {
        rmSync(broken, { recursive: true, force: true });
      }
    },
  );
});
