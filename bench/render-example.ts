/**
 * The 300-manifest cluster of the render figures: the example repository's config (examples/config: stacks, pools,
 * deletions) with its own manifests replaced by 30 components × 10 files of realistic Deployments (a few template
 * expressions each, manifestHash of a sibling ConfigMap). `render.bench.ts` renders it in process;
 * `cli-start.bench.ts` writes it to a directory and renders it with a whole `clm render` process.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const COMPONENTS = 30;
const FILES_PER_COMPONENT = 10;

/** Every file of the 300-manifest config, by path relative to the config root. */
export function renderExampleFiles(): Map<string, string> {
  const files = exampleFiles();
  for (const [path, content] of syntheticManifests()) files.set(path, content);
  return files;
}

/** Write the 300-manifest config under `dir` (a config directory for `clm render --directory`). */
export function writeRenderExample(dir: string): void {
  for (const [path, content] of renderExampleFiles()) {
    const file = join(dir, ...path.split('/'));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
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
