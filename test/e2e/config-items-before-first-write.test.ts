// One check of every config item, before the first write, for plan and provision alike: a malformed pool-level
// maintenance_windows or a bad value from config-defaults.yaml fails `clm provision` before any stack is deployed or
// node touched (the message names the pool, the item and where the value came from, not a wrapped States.TaskFailed),
// and `clm plan` reports the same problem.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ROOT,
  TEST,
  clm,
  configWithNewImage,
  copyState,
  createKubeTest,
  loadWorld,
  poolInstances,
  tempDir,
} from './support/clm-session';

const temps: string[] = [];
let base: string;
let config: string;

beforeAll(async () => {
  base = tempDir('items-base');
  config = configWithNewImage(['worker-default']);
  temps.push(base, config);
  await createKubeTest(base);
});

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** examples/clusters.yaml with kube-test's worker pool given `maintenance_windows: <value>`. */
function registryWithPoolWindows(dir: string, value: string): string {
  const file = join(dir, 'clusters.yaml');
  const text = readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8');
  const pool = '        min_size: 2\n        max_size: 3\n';
  if (!text.includes(pool)) throw new Error('examples/clusters.yaml: the kube-test worker pool moved');
  writeFileSync(file, text.replace(pool, `${pool}        config_items:\n          maintenance_windows: "${value}"\n`));
  return file;
}

function args(command: 'plan' | 'provision', registry: string, directory: string, state: string): string[] {
  return [command, '--simulate', '--registry', registry, '--directory', directory, '--state', state, '--cluster', TEST];
}

/** What changed the world: stack deploys and the worker pool's instances. */
function footprint(state: string): string {
  const world = loadWorld(state);
  return JSON.stringify({ deploys: world.apiCalls()['stacks.deploy'] ?? 0, pools: poolInstances(world, TEST) });
}

describe('config items are checked before the first write', () => {
  it('a malformed pool-level maintenance_windows: provision changes nothing, plan reports the same', async () => {
    // Arrange
    const state = copyState(base, 'items-windows');
    temps.push(state);
    const registry = registryWithPoolWindows(state, 'Mon 25:00-26:00 UTC');
    const before = footprint(state);
    const expected = `config item maintenance_windows (node pool default-worker, from the registry): maintenance window "Mon 25:00-26:00 UTC": times go from 00:00 to 24:00`;

    // Act
    const provision = await clm(args('provision', registry, config, state));
    const plan = await clm(args('plan', registry, config, state));

    // Assert
    expect(provision.code).toBe(1);
    expect(provision.out + provision.err).toContain(expected);
    expect(provision.out + provision.err).not.toContain('States.TaskFailed');
    expect(footprint(state)).toBe(before);
    expect(plan.code).toBe(1);
    expect(plan.out + plan.err).toContain(expected);
  });

  it('a bad value from config-defaults.yaml is refused naming that file and line', async () => {
    // Arrange
    const state = copyState(base, 'items-defaults');
    temps.push(state);
    const defaults = join(config, 'cluster/config-defaults.yaml');
    const original = readFileSync(defaults, 'utf8');
    writeFileSync(defaults, original.replace('drain_grace_period: 10m', 'drain_grace_period: ten minutes'));
    const line = original.split('\n').findIndex((l) => l === 'drain_grace_period: 10m') + 1;
    const before = footprint(state);

    try {
      // Act
      const provision = await clm(args('provision', 'examples/clusters.yaml', config, state));
      const plan = await clm(args('plan', 'examples/clusters.yaml', config, state));

      // Assert
      const named = `config item drain_grace_period (from main/cluster/config-defaults.yaml:${line})`;
      expect(provision.code).toBe(1);
      expect(provision.out + provision.err).toContain(named);
      expect(footprint(state)).toBe(before);
      expect(plan.out + plan.err).toContain(named);
    } finally {
      writeFileSync(defaults, original);
    }
  });
});
