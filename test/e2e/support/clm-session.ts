// Helpers of the end-to-end tests: run `clm` in process (main() with a captured CliIo) against temporary
// state directories, copy and edit the example config, read the saved world and progress back.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../../lambdas/cli/main';
import type { CliIo } from '../../../lambdas/cli/io';
import { SimulatedWorld } from '../../../lambdas/sim';
import type { ProgressData } from '../../../lambdas/adapters/progress/memory-progress-store';
import { readProgressDir } from '../../../lambdas/adapters/progress/file-progress-store';
import type { RunRecord } from '../../../lambdas/core/model/run';

export const ROOT = resolve(__dirname, '../../..');
export const TEST = 'aws:123456789012:eu-central-1:kube-test';
export const STAGING = 'aws:123456789012:eu-central-1:kube-staging';
export const PROD = 'aws:210987654321:eu-west-1:kube-prod';
export const EXAMPLES = ['--registry', 'examples/clusters.yaml'];
const AMI_LINE = 'ImageId: {{NodePool.ConfigItems.ami_id}}';

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** `clm <args>` in process, from the repository root. */
export async function clm(args: readonly string[]): Promise<CliRun> {
  const io: CliIo & { out: string; err: string } = {
    out: '',
    err: '',
    cwd: ROOT,
    stdout(text) {
      io.out += text;
    },
    stderr(text) {
      io.err += text;
    },
  };
  const code = await main([...args], io);
  return { code, out: io.out, err: io.err };
}

/** The arguments of `clm <command> --simulate` on kube-test of the examples, with `config` and `state` directories. */
export function kubeTestArgs(command: 'provision' | 'decommission', config: string, state: string): string[] {
  return [command, '--simulate', ...EXAMPLES, '--directory', config, '--state', state, '--cluster', TEST];
}

/** Creates kube-test from examples/config in `state`; throws with the CLI's output when that fails. */
export async function createKubeTest(state: string): Promise<void> {
  const created = await clm(kubeTestArgs('provision', 'examples/config', state));
  if (created.code !== 0) throw new Error(`creating kube-test failed: ${created.out}${created.err}`);
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `clm-e2e-${prefix}-`));
}

/** A copy of a state directory (world, progress, artefacts), so each test starts from the same world. */
export function copyState(from: string, prefix: string): string {
  const to = tempDir(prefix);
  cpSync(from, to, { recursive: true });
  return to;
}

/** A copy of examples/config with the node image of the given profiles changed (a new launch template version). */
export function configWithNewImage(
  profiles: readonly string[] = ['worker-default'],
  image = 'ami-0feedface0001',
): string {
  const dir = tempDir('config');
  cpSync(join(ROOT, 'examples/config'), dir, { recursive: true });
  for (const profile of profiles) {
    const file = join(dir, 'cluster/node-pools', profile, 'stack.yaml');
    const text = readFileSync(file, 'utf8');
    if (!text.includes(AMI_LINE)) throw new Error(`${file} has no "${AMI_LINE}" line to change`);
    writeFileSync(file, text.replace(AMI_LINE, `ImageId: ${image}`));
  }
  return dir;
}

export function loadWorld(stateDir: string): SimulatedWorld {
  return SimulatedWorld.load(stateDir);
}

export function loadProgress(stateDir: string): ProgressData {
  return readProgressDir(stateDir);
}

/** The newest run record of a cluster in the saved progress. */
export function latestRun(stateDir: string, clusterId: string): RunRecord {
  const runs = Object.values(loadProgress(stateDir).runs).filter((r) => r.clusterId === clusterId);
  const run = runs.sort((a, b) => a.startedAt - b.startedAt).at(-1);
  if (!run) throw new Error(`no run of ${clusterId} in ${stateDir}`);
  return run;
}

export interface PoolInstances {
  /** Pending or InService. */
  readonly alive: string[];
  /** Terminating or Terminated. */
  readonly gone: string[];
}

/** Every instance the world ever launched for each pool of a cluster (by the instances' cluster and NodePool tags). */
export function poolInstances(world: SimulatedWorld, clusterId: string): Record<string, PoolInstances> {
  const pools: Record<string, { alive: string[]; gone: string[] }> = {};
  for (const account of Object.values(world.snapshot().accounts)) {
    for (const instance of Object.values(account.instances)) {
      if (instance.tags[`kubernetes.io/cluster/${clusterId}`] !== 'owned') continue;
      const pool = (pools[instance.tags.NodePool ?? '?'] ??= { alive: [], gone: [] });
      (instance.state === 'Pending' || instance.state === 'InService' ? pool.alive : pool.gone).push(instance.id);
    }
  }
  for (const pool of Object.values(pools)) {
    pool.alive.sort();
    pool.gone.sort();
  }
  return pools;
}

/** The progress lines printed for one cluster (between its "starting" and its result line). */
export function clusterLines(out: string, clusterId: string): string[] {
  const lines = out.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`${clusterId}: `) && l.endsWith(' starting'));
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && l.startsWith(`${clusterId}: `));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}
