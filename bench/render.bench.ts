/**
 * Rendering budgets (DESIGN.md §8):
 *  - one cluster with 300 manifests (30 components × 10 files of realistic Deployments, a few template
 *    expressions each, manifestHash of a sibling ConfigMap) in ≤ 1 s;
 *  - version computation for 1,000 clusters (config version resolution, cluster hash, needs-update check,
 *    account selection) in ≤ 5 s.
 * The cluster is the example repository's test cluster (examples/), so stacks and pools are rendered too.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HandlebarsTemplateEngine } from '../lambdas/adapters/templating/handlebars-template-engine';
import { StaticValuesProvider } from '../lambdas/adapters/values/static-values-provider';
import type { Cluster, NodePool } from '../lambdas/core/model/cluster';
import { EMPTY_STATUS } from '../lambdas/core/model/cluster';
import { parseClustersYaml } from '../lambdas/core/model/parse-clusters';
import { renderCluster } from '../lambdas/core/render/render-cluster';
import { selectClusters } from '../lambdas/core/selection/select-clusters';
import { needsUpdate, targetVersion } from '../lambdas/core/version/cluster-version';
import { resolveClusterConfigVersion } from '../lambdas/core/version/resolve-config-version';
import type { ConfigSnapshot } from '../lambdas/ports/config-source';
import type { TemplateEngine } from '../lambdas/ports/template-engine';
import type { BenchResult } from './bench-result';
import { median, timeRuns, withBudget } from './bench-result';
import { renderExampleFiles } from './render-example';

export const name = 'render';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 7;

export async function run(): Promise<BenchResult[]> {
  return [...(await renderBudget()), ...(await versionBudget())];
}

async function renderBudget(): Promise<BenchResult[]> {
  const { clusters } = parseClustersYaml(
    readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8'),
    'examples/clusters.yaml',
  );
  const cluster = clusters[0];
  const files = renderExampleFiles();
  const snapshots: ConfigSnapshot[] = [{ sourceName: 'main', version: 'bench', files }];
  const values = await new StaticValuesProvider().clusterValues(cluster);
  const decrypter = { decrypt: async (s: string) => s };

  let manifests = 0;
  let engineMs = 0;
  const once = async (inner: HandlebarsTemplateEngine) => {
    const engine: TemplateEngine = {
      render: async (request) => {
        const start = performance.now();
        try {
          return await inner.render(request);
        } finally {
          engineMs += performance.now() - start;
        }
      },
    };
    const render = await renderCluster({ cluster, snapshots, values, engine, decrypter });
    if (render.errors.length) throw new Error(`render failed: ${render.errors.map((e) => e.message).join('; ')}`);
    manifests = render.manifests.length;
  };
  // Fresh engine per run: every template compiled, as in a cold Lambda.
  const cold = await timeRuns(RUNS, () => once(new HandlebarsTemplateEngine()));
  const outsideEngine = median(cold) - engineMs / RUNS;
  // One engine for all runs: compiled templates cached, as in a warm Lambda.
  const warmEngine = new HandlebarsTemplateEngine();
  await once(warmEngine);
  const warm = await timeRuns(RUNS, () => once(warmEngine));
  const note = `${manifests} manifest files + 5 stacks, median of ${RUNS}`;
  return [
    withBudget({
      name: 'render 1 cluster, 300 manifests (fresh engine)',
      value: median(cold),
      unit: 'ms',
      budget: 1000,
      note,
    }),
    withBudget({
      name: 'render 1 cluster, 300 manifests (warm engine)',
      value: median(warm),
      unit: 'ms',
      budget: 1000,
      note,
    }),
    {
      name: '  of which outside the template engine (fresh)',
      value: Math.max(0, outsideEngine),
      unit: 'ms',
      note: 'YAML split/parse, layout, hashing, gzip: the pipeline itself',
    },
  ];
}

async function versionBudget(): Promise<BenchResult[]> {
  const clusters = syntheticFleet(1000);
  const sources = [
    { name: 'main', resolveVersion: async (channel: string) => `sha-main-${channel}` },
    { name: 'extra', resolveVersion: async (channel: string) => `sha-extra-${channel}` },
  ];
  let outdated = 0;
  const once = async () => {
    const cache = new Map<string, Promise<string>>();
    const { selected } = selectClusters(clusters, { include: '^aws:1', exclude: '^aws:19' });
    outdated = 0;
    for (const cluster of selected) {
      const config = await resolveClusterConfigVersion(cluster, sources, { cache });
      if (needsUpdate(cluster.status.currentVersion, targetVersion(config.id, cluster))) outdated++;
    }
    // The whole dispatcher pass (priorities, waves, cap) is measured in dispatch.bench.ts.
  };
  const durations = await timeRuns(RUNS, once);
  return [
    withBudget({
      name: 'versions + selection, 1,000 clusters',
      value: median(durations),
      unit: 'ms',
      budget: 5000,
      note: `3 pools × 20 items each, 2 sources, ${outdated} outdated, median of ${RUNS}`,
    }),
  ];
}

function syntheticFleet(count: number): Cluster[] {
  const items = (prefix: string) =>
    Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${prefix}_item_${i}`, `value-${i}`]));
  const pool = (n: number): NodePool => ({
    name: `pool-${n}`,
    profile: n === 0 ? 'master-default' : 'worker-default',
    instanceTypes: ['m6i.large', 'm5.large'],
    discountStrategy: 'none',
    minSize: 1,
    maxSize: 4,
    configItems: items(`pool${n}`),
  });
  return Array.from({ length: count }, (_, i) => ({
    id: `aws:${String(100000000000 + (i % 40)).padStart(12, '0')}:eu-central-1:kube-${i}`,
    alias: `kube-${i}`,
    localId: `kube-${i}`,
    apiServerUrl: `https://kube-${i}.example.org`,
    channel: i % 3 === 0 ? 'beta' : 'stable',
    configItems: items('cluster'),
    criticalityLevel: i % 3,
    environment: i % 2 ? 'production' : 'test',
    infrastructureAccount: `aws:${String(100000000000 + (i % 40)).padStart(12, '0')}`,
    lifecycleStatus: 'ready',
    nodePools: [pool(0), pool(1), pool(2)],
    provider: 'zalando-aws',
    region: 'eu-central-1',
    status: { ...EMPTY_STATUS, currentVersion: i % 5 === 0 ? '' : `sha-main-stable#x${i}` },
  }));
}
