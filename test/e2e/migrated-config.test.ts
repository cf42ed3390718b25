// A Zalando-CLM-shaped config (Go templates, examples/clm-config) converted by `clm migrate` and provisioned by the
// state machine in the simulated world: what a team coming from CLM does first.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { clm, tempDir } from './support/clm-session';

describe('clm migrate, then clm provision --simulate on the converted config', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('creates every cluster of the converted repository without disruption', async () => {
    // Arrange
    const work = tempDir('migrated');
    dirs.push(work);
    const config = join(work, 'config');
    const migrated = await clm(['migrate', '--from', 'examples/clm-config', '--to', config]);

    // Act
    const run = await clm([
      'provision',
      '--simulate',
      '--registry',
      'examples/clm-clusters.yaml',
      '--directory',
      config,
      '--state',
      join(work, 'state'),
      '--output',
      'json',
    ]);

    // Assert
    expect(migrated.code).toBe(0);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.out) as { clusters: { status: string; pdbViolations: number }[] };
    expect(summary.clusters.length).toBeGreaterThan(1);
    expect(summary.clusters.map((c) => [c.status, c.pdbViolations])).toEqual(
      summary.clusters.map(() => ['succeeded', 0]),
    );
  });
});
