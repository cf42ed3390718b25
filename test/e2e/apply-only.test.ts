// `--apply-only` applies stacks and manifests without rolling nodes; the nodes stay behind the version the cluster
// reports, so the next run without the flag must roll them (it used to find the cluster "up to date").
import { rmSync } from 'node:fs';
import {
  EXAMPLES,
  TEST,
  clm,
  configWithNewImage,
  createKubeTest,
  loadWorld,
  poolInstances,
  tempDir,
} from './support/clm-session';

interface Summary {
  readonly id: string;
  readonly status: string;
  readonly nodesReplaced: number;
  readonly pdbViolations: number;
}

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

async function provision(state: string, config: string, ...extra: string[]): Promise<Summary> {
  const run = await clm([
    ...['provision', '--simulate', ...EXAMPLES, '--directory', config, '--state', state],
    ...['--cluster', TEST, '--output', 'json', ...extra],
  ]);
  expect({ code: run.code, err: run.err }).toEqual({ code: 0, err: '' });
  return (JSON.parse(run.out) as { clusters: Summary[] }).clusters[0]!;
}

describe('clm provision --apply-only', () => {
  it('leaves the nodes behind, says so, and the next run without it rolls them', async () => {
    const state = tempDir('apply-only');
    const config = configWithNewImage();
    temps.push(state, config);
    await createKubeTest(state);
    const before = poolInstances(loadWorld(state), TEST)['default-worker']!.alive;

    const applied = await provision(state, config, '--apply-only');
    expect(applied).toMatchObject({ status: 'succeeded', nodesReplaced: 0 });
    expect(poolInstances(loadWorld(state), TEST)['default-worker']!.alive).toEqual(before);
    const status = await clm(['status', ...EXAMPLES, '--state', state, '--cluster', TEST]);
    expect(status.out).toContain('nodes not rolled (--apply-only)');

    const rolled = await provision(state, config);
    expect(rolled).toMatchObject({ status: 'succeeded', pdbViolations: 0 });
    expect(rolled.nodesReplaced).toBe(before.length);
    const after = poolInstances(loadWorld(state), TEST)['default-worker']!;
    expect(after.gone).toEqual(expect.arrayContaining(before));

    const again = await provision(state, config);
    expect(again.status).toBe('unchanged');
  });
});
