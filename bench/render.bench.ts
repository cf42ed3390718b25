/**
 * Rendering budgets (DESIGN.md §8):
 *  - one cluster with 300 manifests (30 components × 10 files of realistic Deployments, a few template
 *    expressions each, manifestHash of a sibling ConfigMap) in ≤ 1 s;
 *  - version computation for 1,000 clusters (config version resolution, cluster hash, needs-update check,
 *    account selection) in ≤ 5 s.
 * The cluster is the example repository's test cluster (examples/), so stacks and pools are rendered too.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
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

export const name = 'render';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const COMPONENTS = 30;
const FILES_PER_COMPONENT = 10;
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
  const files = exampleFiles();
  for (const [path, content] of syntheticManifests()) files.set(path, content);
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

/** Every file of examples/config. */
function exampleFiles(): Map<string, string> {
  const dir = join(ROOT, 'examples/config');
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    files.set(relative(dir, full).split(sep).join('/'), readFileSync(full, 'utf8'));
  }
  // Only the synthetic manifests count towards the 300.
  for (const path of [...files.keys()])
    if (path.startsWith('cluster/manifests/') && path !== 'cluster/manifests/deletions.yaml') files.delete(path);
  return files;
}

/** 30 components × 10 files: a ConfigMap and 9 Deployments (with a PDB) hashing it, templated like KoA's. */
function syntheticManifests(): Map<string, string> {
  const files = new Map<string, string>();
  for (let c = 0; c < COMPONENTS; c++) {
    const component = `${String(c).padStart(2, '0')}-app${c}`;
    const dir = `cluster/manifests/${component}`;
    files.set(
      `${dir}/00-config.yaml`,
      [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        `  name: app${c}-config`,
        `  namespace: ns${c}`,
        'data:',
        '  CLUSTER: "{{Cluster.ID}}"',
        '  ENVIRONMENT: "{{Cluster.Environment}}"',
        '  REGION: "{{Cluster.Region}}"',
        '',
      ].join('\n'),
    );
    for (let f = 1; f < FILES_PER_COMPONENT; f++) {
      files.set(`${dir}/${String(f).padStart(2, '0')}-deployment.yaml`, deployment(c, f));
    }
  }
  return files;
}

function deployment(c: number, f: number): string {
  const app = `app${c}-svc${f}`;
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${app}
  namespace: ns${c}
  labels:
    application: ${app}
    team: "{{index Cluster.ConfigItems "team"}}"
spec:
  replicas: {{#if (eq Cluster.Environment "production")}}3{{else}}{{Cluster.ConfigItems.web_replicas}}{{/if}}
  selector:
    matchLabels:
      application: ${app}
  template:
    metadata:
      labels:
        application: ${app}
      annotations:
        config/hash: "{{manifestHash "00-config.yaml"}}"
    spec:
      containers:
        - name: main
          image: registry.example.org/${app}:1.{{len Cluster.NodePools}}.0
          env:
            - {name: CLUSTER_ALIAS, value: "{{Cluster.Alias}}"}
            - {name: HOSTED_ZONE, value: "{{Values.hosted_zone}}"}
          resources:
            requests: {cpu: 100m, memory: 128Mi}
            limits: {memory: 256Mi}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: ${app}
  namespace: ns${c}
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
      application: ${app}
`;
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
