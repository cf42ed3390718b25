// Helpers of the node renewal tests: kube-test's default-worker with config items, a scenario with a PDB-covered
// Deployment and node incidents, and what the world and the run record show afterwards.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, TEST, clm, latestRun, loadWorld } from './clm-session';

const POOL_BLOCK = '        min_size: 2\n        max_size: 3\n    status: {}\n';

const CLUSTER_ITEMS = '      team: platform\n';

/**
 * examples/clusters.yaml with kube-test's default-worker sized and given config items, and kube-test given
 * `clusterItems` (its first `team: platform` line is kube-test's).
 */
export function registryWith(
  dir: string,
  items: Record<string, string>,
  size = { min: 2, max: 3 },
  clusterItems: Record<string, string> = {},
): string {
  const examples = readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8');
  const extra = Object.entries(clusterItems).map(([k, v]) => `      ${k}: "${v}"\n`);
  if (!examples.startsWith(`clusters:\n  - id: ${TEST}\n`, examples.indexOf('clusters:')))
    throw new Error('examples/clusters.yaml changed: update the test');
  const text = examples.replace(CLUSTER_ITEMS, CLUSTER_ITEMS + extra.join(''));
  const lines = Object.entries(items).map(([k, v]) => `          ${k}: "${v}"\n`);
  const block = `        min_size: ${size.min}\n        max_size: ${size.max}\n        config_items:\n${lines.join('')}    status: {}\n`;
  if (!text.includes(POOL_BLOCK)) throw new Error('examples/clusters.yaml changed: update the test');
  const file = join(dir, 'clusters.yaml');
  writeFileSync(file, text.replace(POOL_BLOCK, block));
  return file;
}

/** A scenario: a web Deployment under a PDB, and `incidents` (nodeIncidents entries). */
export function scenario(dir: string, incidents: string): string {
  const file = join(dir, 'scenario.yaml');
  writeFileSync(
    file,
    `seed: 3
clusters:
  ${TEST}:
    workloads:
      - { kind: Deployment, name: web, replicas: 3 }
    pdbs:
      - { name: web, selector: { app: web }, minAvailable: 2 }
${incidents}`,
  );
  return file;
}

export function args(command: string[], registry: string, state: string, extra: string[] = []): string[] {
  return [
    ...command,
    ...['--simulate', '--registry', registry, '--directory', 'examples/config', '--state', state],
    ...extra,
    '--output',
    'json',
  ];
}

export async function provision(registry: string, state: string, extra: string[] = []) {
  const run = await clm(args(['provision', '--cluster', TEST], registry, state, extra));
  if (run.code !== 0) throw new Error(`provision failed (${run.code}): ${run.out}${run.err}`);
  return JSON.parse(run.out) as { clusters: { status: string; message: string; pdbViolations: number }[] };
}

/** Seconds of virtual time since the world started. */
export function elapsed(state: string): number {
  const world = loadWorld(state);
  return (world.clock.now() - world.snapshot().startTime) / 1000;
}

/** The nodes of default-worker the latest run replaced (terminated, not its own extra nodes). */
export function replacedBy(state: string): string[] {
  const nodes = Object.values(latestRun(state, TEST).pools['default-worker']!.nodes);
  return nodes
    .filter((n) => n.state === 'terminated' && !n.surplus)
    .map((n) => n.instanceId)
    .sort();
}

export function nodesOf(state: string) {
  return Object.values(loadWorld(state).snapshot().kube[TEST]!.nodes).filter((n) => n.pool === 'default-worker');
}
