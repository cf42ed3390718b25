import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// The README's event-driven demo, its git part (the repository, the first commit and push, a change committed and
// pushed), run as written by a git that has no identity configured: no global or system config, a fresh HOME.
const ROOT = resolve(__dirname, '../..');

/** The demo's shell block, its git lines only (the server and the hook are the e2e test's business). */
function demoGitLines(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('mkdir -p /tmp/demo/acme');
  const block = readme.slice(start, readme.indexOf('```', start));
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, ''))
    .filter((line) => /^(mkdir|git|cp|sed)\b/.test(line) && !line.includes(' config clm.'));
}

describe('README: the event-driven demo', () => {
  it('commits and pushes on a machine where git has no identity', () => {
    const root = mkdtempSync(join(tmpdir(), 'clm-readme-demo-'));
    const lines = demoGitLines().map((line) => line.replaceAll('/tmp/demo', root));
    expect(lines.some((l) => l.includes('commit'))).toBe(true);
    const script = [`cd ${root}`, ...lines.map((l) => l.replaceAll('"$OLDPWD"', ROOT))].join('\n');
    try {
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: root,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: join(root, 'no-gitconfig'),
      };
      execFileSync('bash', ['-euo', 'pipefail', '-c', script], { env, stdio: 'pipe' });
      const log = execFileSync('git', ['-C', join(root, 'acme/cluster-config.git'), 'log', '--format=%s', 'main'], {
        env,
        encoding: 'utf8',
      });
      expect(log.trim().split('\n')).toEqual(['friendlier greeting', 'init']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
