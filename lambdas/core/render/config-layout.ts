import { ConfigError } from '../../shared/errors';
import type { ConfigSnapshot } from '../../ports/config-source';
import type { TemplateFile } from '../../ports/template-engine';
import type { NodePool } from '../model/cluster';

/**
 * Where things live in a config source (reference/clm-behaviour.md §4.1, §3.1). Paths inside a snapshot
 * are posix paths from the source root; paths shown to people are prefixed with the source name
 * (`main/cluster/manifests/10-coredns/deployment.yaml`), which is also what templates see.
 */

export const CLUSTER_STACK = 'cluster/cluster.yaml';
export const CONFIG_DEFAULTS = 'cluster/config-defaults.yaml';
export const DELETIONS = 'cluster/manifests/deletions.yaml';
export const CF_DELETIONS = 'cluster/cf-manifests/cf-deletions.yaml';
const MANIFESTS_DIR = 'cluster/manifests/';
const CF_MANIFESTS_DIR = 'cluster/cf-manifests/';
const YAML_FILE = /\.ya?ml$/;

/** A template of one source, with its path inside the source and the path shown in errors. */
export interface SourceTemplate extends TemplateFile {
  readonly source: string;
  /** Path inside the source, e.g. `cluster/cluster.yaml`. */
  readonly sourcePath: string;
}

export interface ManifestComponent {
  readonly source: string;
  /** The directory name, e.g. `10-coredns`. */
  readonly component: string;
  /** Top-level `*.yaml` / `*.yml` files, in lexical order. */
  readonly files: readonly SourceTemplate[];
}

export interface NodePoolTemplates {
  readonly files: SourceTemplate;
  readonly userdata: SourceTemplate;
  readonly stack: SourceTemplate;
}

/** A Karpenter pool's profile: provisioners.yaml (Kubernetes objects) instead of stack.yaml. */
export interface KarpenterPoolTemplates {
  readonly files: SourceTemplate;
  readonly userdata: SourceTemplate;
  readonly provisioners: SourceTemplate;
}

export function sourceTemplate(snapshot: ConfigSnapshot, sourcePath: string): SourceTemplate | undefined {
  const content = snapshot.files.get(sourcePath);
  if (content === undefined) return undefined;
  return { source: snapshot.sourceName, sourcePath, path: `${snapshot.sourceName}/${sourcePath}`, content };
}

/** The first source is the "main config": the cluster stack and node-pool profiles come from it alone. */
export function mainSource(snapshots: readonly ConfigSnapshot[]): ConfigSnapshot {
  const [first] = snapshots;
  if (!first) throw new ConfigError('no config source given: pass --directory or --config-source');
  return first;
}

/** `cluster/cluster.yaml` of the first source; missing is an error. */
export function clusterStackTemplate(snapshots: readonly ConfigSnapshot[]): SourceTemplate {
  const main = mainSource(snapshots);
  const template = sourceTemplate(main, CLUSTER_STACK);
  if (!template)
    throw new ConfigError('the main cluster stack template is missing', {
      location: { file: `${main.sourceName}/${CLUSTER_STACK}` },
    });
  return template;
}

/** `cluster/node-pools/<profile>/{files,userdata,stack}.yaml` of the first source; a missing file names the pool and profile. */
export function nodePoolTemplates(
  snapshots: readonly ConfigSnapshot[],
  pool: Pick<NodePool, 'name' | 'profile'>,
): NodePoolTemplates {
  const read = profileReader(snapshots, pool);
  return { files: read('files.yaml'), userdata: read('userdata.yaml'), stack: read('stack.yaml') };
}

/** `cluster/node-pools/<profile>/{files,userdata,provisioners}.yaml` of the first source (Karpenter pools, CLM §4.5). */
export function karpenterPoolTemplates(
  snapshots: readonly ConfigSnapshot[],
  pool: Pick<NodePool, 'name' | 'profile'>,
): KarpenterPoolTemplates {
  const read = profileReader(snapshots, pool);
  return { files: read('files.yaml'), userdata: read('userdata.yaml'), provisioners: read('provisioners.yaml') };
}

function profileReader(
  snapshots: readonly ConfigSnapshot[],
  pool: Pick<NodePool, 'name' | 'profile'>,
): (name: string) => SourceTemplate {
  const main = mainSource(snapshots);
  const read = (name: string): SourceTemplate => {
    const sourcePath = `cluster/node-pools/${pool.profile}/${name}`;
    const template = sourceTemplate(main, sourcePath);
    if (!template) {
      throw new ConfigError(`node pool "${pool.name}" uses profile "${pool.profile}", which has no ${name}`, {
        location: { file: `${main.sourceName}/${sourcePath}`, field: `node_pools.${pool.name}.profile` },
      });
    }
    return template;
  };
  return read;
}

/** An optional file of every source, in source order (config-defaults.yaml, deletions.yaml, cf-deletions.yaml). */
export function templatesInEverySource(snapshots: readonly ConfigSnapshot[], sourcePath: string): SourceTemplate[] {
  return snapshots.flatMap((snapshot) => sourceTemplate(snapshot, sourcePath) ?? []);
}

/** `cluster/cf-manifests/*.y?ml` (without cf-deletions.yaml) of every source: sources in order, files lexical. */
export function cfManifestTemplates(snapshots: readonly ConfigSnapshot[]): SourceTemplate[] {
  return snapshots.flatMap((snapshot) =>
    sortedKeys(snapshot)
      .filter(
        (path) =>
          path.startsWith(CF_MANIFESTS_DIR) &&
          path !== CF_DELETIONS &&
          isTopLevelYaml(path.slice(CF_MANIFESTS_DIR.length)),
      )
      .map((path) => sourceTemplate(snapshot, path)!),
  );
}

/** Manifest components of every source: sources in order, components and their files lexical (CLM's apply order). */
export function manifestComponents(snapshots: readonly ConfigSnapshot[]): ManifestComponent[] {
  return snapshots.flatMap((snapshot) => {
    const byComponent = new Map<string, SourceTemplate[]>();
    for (const path of sortedKeys(snapshot)) {
      if (!path.startsWith(MANIFESTS_DIR)) continue;
      const parts = path.slice(MANIFESTS_DIR.length).split('/');
      // Only top-level files of each component directory (CLM ignores deeper files).
      if (parts.length !== 2 || !YAML_FILE.test(parts[1])) continue;
      const list = byComponent.get(parts[0]) ?? [];
      list.push(sourceTemplate(snapshot, path)!);
      byComponent.set(parts[0], list);
    }
    return [...byComponent.entries()]
      .sort(([a], [b]) => compareNames(a, b))
      .map(([component, files]) => ({ source: snapshot.sourceName, component, files }));
  });
}

/** The file name of a template inside its component, e.g. `deployment.yaml`. */
export function fileName(template: Pick<SourceTemplate, 'sourcePath'>): string {
  return template.sourcePath.slice(template.sourcePath.lastIndexOf('/') + 1);
}

function isTopLevelYaml(name: string): boolean {
  return !name.includes('/') && YAML_FILE.test(name);
}

function sortedKeys(snapshot: ConfigSnapshot): string[] {
  return [...snapshot.files.keys()].sort(compareNames);
}

/** Byte-wise order, as Go's directory listing (not locale order). */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
