import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../lambdas/cli/main';
import { captureIo } from '../support/cli-io';
import { GO_SEMANTICS_HEADER } from '../../lambdas/core/render/go-semantics-pragma';

const ROOT = resolve(__dirname, '../..');

function write(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

describe('clm migrate', () => {
  let tmp: string;
  let from: string;
  let to: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'clm-migrate-'));
    from = join(tmp, 'repo');
    to = join(tmp, 'out');
    write(from, {
      'README.md': 'Go templates: {{ .Cluster.ID }} (not rendered by CLM)\n',
      'cluster/config-defaults.yaml': 'replicas: {{ if eq .Cluster.Environment "production" }}3{{ else }}1{{ end }}\n',
      'cluster/manifests/app/plain.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: app}\n',
      'cluster/manifests/app/deployment.yaml':
        'name: {{ .Cluster.Alias }}\n{{- range .Values.availability_zones }}\n- {{ . }}\n{{- end }}\n',
      'cluster/manifests/app/loop.yaml': 'a: 1\n{{ range .Values.x }}\n{{ break }}\n{{ end }}\n',
      'cluster/node-pools/worker/userdata.yaml': '#!/bin/sh\necho {{ .NodePool.Name }}\n',
    });
    chmodSync(join(from, 'cluster/node-pools/worker/userdata.yaml'), 0o755);
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('converts templates, copies the rest, lists refusals with line and reason, and exits 1 when any is refused', async () => {
    // Arrange
    const io = captureIo(tmp);

    // Act
    const code = await main(['migrate', '--from', 'repo', '--to', 'out', '--report', 'report.md'], io);

    // Assert
    expect(code).toBe(1);
    expect(io.out).toContain('repo → out: 3 converted, 2 copied unchanged, 1 refused');
    expect(io.out).toContain(
      '  refused cluster/manifests/app/loop.yaml:3: {{break}} inside range has no handlebars equivalent\n',
    );
    const deployment = readFileSync(join(to, 'cluster/manifests/app/deployment.yaml'), 'utf8');
    expect(deployment).toBe(
      `${GO_SEMANTICS_HEADER}\nname: {{Cluster.Alias}}{{#each Values.availability_zones}}\n- {{this}}{{/each}}\n`,
    );
    for (const unchanged of ['README.md', 'cluster/manifests/app/plain.yaml', 'cluster/manifests/app/loop.yaml'])
      expect(readFileSync(join(to, unchanged), 'utf8')).toBe(readFileSync(join(from, unchanged), 'utf8'));
    expect(statSync(join(to, 'cluster/node-pools/worker/userdata.yaml')).mode & 0o777).toBe(0o755);
    const report = readFileSync(join(tmp, 'report.md'), 'utf8');
    expect(report).toContain('## Refused: left as Go templates, convert by hand (1)');
    expect(report).toContain(
      '- `cluster/manifests/app/loop.yaml:3`: {{break}} inside range has no handlebars equivalent',
    );
    expect(report).toContain('- `README.md` (not a template)');
    expect(report).toContain('- `cluster/manifests/app/plain.yaml` (no template actions)');
  });

  it('writes a JSON report and exits 0 when everything converts; a second run copies what is converted', async () => {
    // Arrange
    rmSync(join(from, 'cluster/manifests/app/loop.yaml'));
    const io = captureIo(tmp);

    // Act
    const first = await main(['migrate', '--from', 'repo', '--to', 'out', '--report', 'report.json'], io);
    const again = await main(['migrate', '--from', 'out', '--to', 'again'], captureIo(tmp));

    // Assert
    expect(first).toBe(0);
    const report = JSON.parse(readFileSync(join(tmp, 'report.json'), 'utf8'));
    expect(report.summary).toEqual({ converted: 3, copied: 2, refused: 0 });
    expect(report.files).toContainEqual({ path: 'cluster/config-defaults.yaml', action: 'converted' });
    expect(again).toBe(0);
    expect(readFileSync(join(tmp, 'again/cluster/config-defaults.yaml'), 'utf8')).toBe(
      readFileSync(join(to, 'cluster/config-defaults.yaml'), 'utf8'),
    );
  });

  it.each([
    [['--from', 'missing', '--to', 'out'], '--from '],
    [['--from', '.', '--to', 'out'], 'has no cluster/ directory'],
    [['--from', 'repo', '--to', 'repo/inside'], '--to must not be inside --from'],
    [['--from', 'repo', '--to', 'repo'], 'exists and is not an empty directory'],
    [['--from', 'repo'], "required option '--to <dir>' not specified"],
  ])('refuses %p with exit 2 and writes nothing', async (args, message) => {
    const io = captureIo(tmp);
    const code = await main(['migrate', ...args], io);
    expect(code).toBe(2);
    expect(io.err).toContain(message);
    expect(() => statSync(to)).toThrow();
  });

  it('explains itself with examples', async () => {
    const io = captureIo(ROOT);
    expect(await main(['migrate', '--help'], io)).toBe(0);
    expect(io.out).toContain('$ clm migrate --from');
    expect(io.out).toContain('Exit codes: 0 every template converted');
  });

  it('copies a symbolic link within the repository, and refuses one that points outside it', async () => {
    // Arrange
    writeFileSync(join(tmp, 'outside.txt'), 'not part of the repository\n');
    symlinkSync('../app/plain.yaml', join(from, 'cluster/manifests/app/alias.yaml'));
    mkdirSync(join(from, 'cluster/manifests/leak'));
    symlinkSync('../../../../outside.txt', join(from, 'cluster/manifests/leak/outside.yaml'));
    const io = captureIo(tmp);

    // Act
    const code = await main(['migrate', '--from', 'repo', '--to', 'out'], io);

    // Assert
    expect(code).toBe(1);
    expect(readlinkSync(join(to, 'cluster/manifests/app/alias.yaml'))).toBe('../app/plain.yaml');
    expect(io.out).toContain(
      '  refused cluster/manifests/leak/outside.yaml: symbolic link to ../../../../outside.txt, outside the repository: not copied\n',
    );
    expect(existsSync(join(to, 'cluster/manifests/leak/outside.yaml'))).toBe(false);
  });
});
