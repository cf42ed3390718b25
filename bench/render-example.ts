/**
 * The 300-manifest clusters of the render figures: an example repository's config (stacks, pools, defaults,
 * cf-manifests, deletions) with its own manifests replaced by 30 components × 10 files of realistic Deployments (a few
 * template expressions each, manifestHash of a sibling ConfigMap), in two dialects:
 * - ours (handlebars): examples/config, rendered in process by `render.bench.ts` (cluster kube-test of
 *   examples/clusters.yaml);
 * - CLM's (Go templates): examples/clm-config, rendered side by side by Zalando's CLM and by `clm render` after
 *   `clm migrate` in `vs-clm.bench.ts` (cluster kube-dev of examples/clm-clusters.yaml, values examples/clm-values.yaml).
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const COMPONENTS = 30;
const FILES_PER_COMPONENT = 10;

type Dialect = 'handlebars' | 'go';

/** The synthetic cluster in CLM's dialect: its registry, cluster and values (what `clm render` and the harness use). */
export const CLM_DIALECT_EXAMPLE = {
  registry: join(ROOT, 'examples/clm-clusters.yaml'),
  cluster: 'aws:123456789012:eu-central-1:kube-dev',
  values: join(ROOT, 'examples/clm-values.yaml'),
} as const;

/** Every file of the 300-manifest config (handlebars, examples/config), by path relative to the config root. */
export function renderExampleFiles(): Map<string, string> {
  return exampleWithSyntheticManifests('examples/config', 'handlebars');
}

/** Every file of the 300-manifest config in CLM's dialect (Go templates, examples/clm-config). */
export function clmDialectExampleFiles(): Map<string, string> {
  return exampleWithSyntheticManifests('examples/clm-config', 'go');
}

function exampleWithSyntheticManifests(example: string, dialect: Dialect): Map<string, string> {
  const files = exampleFiles(example);
  for (const [path, content] of syntheticManifests(dialect)) files.set(path, content);
  return files;
}

/** Write a config (renderExampleFiles() or clmDialectExampleFiles()) under `dir`. */
export function writeConfig(dir: string, config: Map<string, string>): void {
  for (const [path, content] of config) {
    const file = join(dir, ...path.split('/'));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** Every file of an example config, without its manifests (deletions.yaml kept). */
function exampleFiles(example: string): Map<string, string> {
  const dir = join(ROOT, example);
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

/** The template expressions of the synthetic manifests, in each dialect. */
const EXPRESSIONS: Record<Dialect, Record<string, string>> = {
  handlebars: {
    id: '{{Cluster.ID}}',
    environment: '{{Cluster.Environment}}',
    region: '{{Cluster.Region}}',
    team: '{{index Cluster.ConfigItems "team"}}',
    replicas: '{{#if (eq Cluster.Environment "production")}}3{{else}}{{Cluster.ConfigItems.web_replicas}}{{/if}}',
    hash: '{{manifestHash "00-config.yaml"}}',
    pools: '{{len Cluster.NodePools}}',
    alias: '{{Cluster.Alias}}',
    zone: '{{Values.hosted_zone}}',
  },
  go: {
    id: '{{ .Cluster.ID }}',
    environment: '{{ .Cluster.Environment }}',
    region: '{{ .Cluster.Region }}',
    team: '{{ index .Cluster.ConfigItems "team" }}',
    replicas:
      '{{ if eq .Cluster.Environment "production" }}3{{ else }}{{ .Cluster.ConfigItems.ingress_replicas }}{{ end }}',
    hash: '{{ manifestHash "00-config.yaml" }}',
    pools: '{{ len .Cluster.NodePools }}',
    alias: '{{ .Cluster.Alias }}',
    zone: '{{ .Values.hosted_zone }}',
  },
};

/** 30 components × 10 files: a ConfigMap and 9 Deployments (with a PDB) hashing it, templated like KoA's. */
function syntheticManifests(dialect: Dialect): Map<string, string> {
  const x = EXPRESSIONS[dialect];
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
        `  CLUSTER: "${x.id}"`,
        `  ENVIRONMENT: "${x.environment}"`,
        `  REGION: "${x.region}"`,
        '',
      ].join('\n'),
    );
    for (let f = 1; f < FILES_PER_COMPONENT; f++) {
      files.set(`${dir}/${String(f).padStart(2, '0')}-deployment.yaml`, deployment(c, f, x));
    }
  }
  return files;
}

function deployment(c: number, f: number, x: Record<string, string>): string {
  const app = `app${c}-svc${f}`;
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${app}
  namespace: ns${c}
  labels:
    application: ${app}
    team: "${x.team}"
spec:
  replicas: ${x.replicas}
  selector:
    matchLabels:
      application: ${app}
  template:
    metadata:
      labels:
        application: ${app}
      annotations:
        config/hash: "${x.hash}"
    spec:
      containers:
        - name: main
          image: registry.example.org/${app}:1.${x.pools}.0
          env:
            - {name: CLUSTER_ALIAS, value: "${x.alias}"}
            - {name: HOSTED_ZONE, value: "${x.zone}"}
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
