import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { configSourcesFromFlags } from '../../../lambdas/adapters/config-source/create-config-sources';
import { createRegistry } from '../../../lambdas/adapters/registry/create-registry';
import { createSimulatedSetup } from '../../../lambdas/runtime/wiring/simulated-ports';
import { ValidationError } from '../../../lambdas/shared/errors';

const ROOT = resolve(__dirname, '../../..');
const DEFAULT = join(ROOT, 'examples/scenarios/default.yaml');
const PDB_BLOCKS = join(ROOT, 'examples/scenarios/pdb-blocks.yaml');

describe('createSimulatedSetup with a scenario file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'clm-sim-setup-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const open = async (scenarioFile?: string) => {
    const registry = createRegistry(join(ROOT, 'examples/clusters.yaml'), { cwd: ROOT });
    const sources = configSourcesFromFlags({ directory: join(ROOT, 'examples/config') }, { cwd: ROOT });
    const clusters = await registry.listClusters();
    return createSimulatedSetup({
      stateDir: join(dir, 'state'),
      registry,
      sources,
      clusters: clusters.slice(0, 1),
      knownClusterIds: clusters.map((c) => c.id),
      ...(scenarioFile ? { scenarioFile } : {}),
    });
  };
  const files = () =>
    Object.fromEntries(
      readdirSync(join(dir, 'state'), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.json'))
        .map((name) => [name, readFileSync(join(dir, 'state', name), 'utf8')]),
    );

  it('records the scenario a new world came from, and takes the same one again', async () => {
    (await open(DEFAULT)).save();

    const again = await open(DEFAULT);

    expect(again.world.scenarioFile).toBe(DEFAULT);
    expect(again.world.scenario.seed).toBe(42);
  });

  it('refuses another scenario for an existing world, naming the one it came from and how to start fresh', async () => {
    (await open(DEFAULT)).save();
    const before = files();

    const opening = open(PDB_BLOCKS);

    await expect(opening).rejects.toThrow(ValidationError);
    await expect(opening).rejects.toThrow(
      `--scenario ${PDB_BLOCKS}: the simulated world in ${join(dir, 'state')} was created earlier from the scenario ${DEFAULT}, ` +
        `and a scenario only shapes a new world. To start fresh with ${PDB_BLOCKS}, remove ${join(dir, 'state')} or ` +
        'give another --state; to go on with the world as it is, leave out --scenario',
    );
    expect(files()).toEqual(before);
  });

  it('refuses a scenario for a world made without one', async () => {
    (await open()).save();

    await expect(open(PDB_BLOCKS)).rejects.toThrow('was created earlier without a scenario');
  });
});
