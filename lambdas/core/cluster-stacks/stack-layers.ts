import { createHash } from 'node:crypto';
import { ConfigError } from '../../shared/errors';

/**
 * The three layers of a cluster stack (SCS Cluster Stacks) and where each lands in CLM's `cluster/…` tree.
 * A stack directory `providers/<provider>/<stack>/<k8s-major-minor>/` holds `metadata.yaml` and one folder
 * per layer; together they are exactly a `cluster/…` tree, split by what changing it costs:
 *
 * | stack directory                                   | CLM path                                   | steps it drives |
 * |---------------------------------------------------|--------------------------------------------|-----------------|
 * | `cluster-class/cluster.yaml`                      | `cluster/cluster.yaml`                     | main stack |
 * | `cluster-class/config-defaults.yaml`              | `cluster/config-defaults.yaml` (first)     | every template |
 * | `cluster-class/node-pools/<profile>/<file>.yaml`  | `cluster/node-pools/<profile>/<file>.yaml` | pool stacks (roll only where the launch template changes) |
 * | `cluster-class/cf-manifests/**`                   | `cluster/cf-manifests/**`                  | cf-manifest stacks |
 * | `cluster-addon/**` (components, `deletions.yaml`) | `cluster/manifests/**`                     | deletions + apply |
 * | `node-image/config-defaults.yaml` (AMIs…)         | `cluster/config-defaults.yaml` (appended)  | pool stacks + roll |
 * | `node-image/node-pools/<profile>/<file>.yaml`     | `cluster/node-pools/<profile>/<file>.yaml` | pool stacks + roll |
 *
 * Other files of a layer (build instructions, READMEs) are part of its content (its digest) but not of the
 * tree. A target path given by two layers is an error naming both files.
 */
export const LAYERS = ['clusterClass', 'clusterAddon', 'nodeImage'] as const;
export type Layer = (typeof LAYERS)[number];

export const LAYER_DIRECTORIES: Readonly<Record<Layer, string>> = {
  clusterClass: 'cluster-class',
  clusterAddon: 'cluster-addon',
  nodeImage: 'node-image',
};

const CONFIG_DEFAULTS = 'cluster/config-defaults.yaml';

/** Where a file of a layer (path inside the layer folder) goes in the `cluster/…` tree, or undefined. */
export function clusterPathOf(layer: Layer, path: string): string | undefined {
  if (layer === 'clusterAddon') return `cluster/manifests/${path}`;
  if (path === 'config-defaults.yaml') return CONFIG_DEFAULTS;
  if (/^node-pools\/[^/]+\/(stack|userdata|files)\.yaml$/.test(path)) return `cluster/${path}`;
  if (layer === 'nodeImage') return undefined;
  if (path === 'cluster.yaml' || path.startsWith('cf-manifests/')) return `cluster/${path}`;
  return undefined;
}

export interface StackLayers {
  /** Per layer, its files (path inside the layer folder → content). */
  readonly files: Readonly<Record<Layer, ReadonlyMap<string, string>>>;
  /** Per layer, `sha256:<hex>` over its files. */
  readonly digests: Readonly<Record<Layer, string>>;
}

/** Split a stack directory's files (paths relative to the stack directory) into its layers. */
export function stackLayers(stackFiles: ReadonlyMap<string, string>): StackLayers {
  const files = Object.fromEntries(LAYERS.map((l) => [l, new Map<string, string>()])) as Record<
    Layer,
    Map<string, string>
  >;
  for (const [path, content] of stackFiles) {
    const layer = LAYERS.find((l) => path.startsWith(`${LAYER_DIRECTORIES[l]}/`));
    if (layer) files[layer].set(path.slice(LAYER_DIRECTORIES[layer].length + 1), content);
  }
  const digests = Object.fromEntries(LAYERS.map((l) => [l, contentDigest(files[l])])) as Record<Layer, string>;
  return { files, digests };
}

/**
 * The `cluster/…` tree the layers make. `where` prefixes the layer paths in errors (the stack directory
 * inside its source, e.g. `main/providers/aws/default/1-30/`). The two config defaults are concatenated
 * (cluster class first); an item set by both is an error naming both files.
 */
export function clusterTree(layers: StackLayers, where: string): Map<string, string> {
  const tree = new Map<string, string>();
  const origin = new Map<string, string>();
  const defaults: { file: string; text: string }[] = [];
  for (const layer of LAYERS) {
    for (const [path, content] of [...layers.files[layer]].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const target = clusterPathOf(layer, path);
      const file = `${where}${LAYER_DIRECTORIES[layer]}/${path}`;
      if (target === undefined) continue;
      if (target === CONFIG_DEFAULTS) {
        defaults.push({ file, text: content });
        continue;
      }
      const other = origin.get(target);
      if (other)
        throw new ConfigError(`${target} is given by two layers: ${other} and ${file}`, { location: { file } });
      origin.set(target, file);
      tree.set(target, content);
    }
  }
  if (defaults.length) tree.set(CONFIG_DEFAULTS, joinedDefaults(defaults));
  return tree;
}

function joinedDefaults(parts: readonly { file: string; text: string }[]): string {
  const seen = new Map<string, string>();
  for (const { file, text } of parts) {
    for (const match of text.matchAll(/^([A-Za-z0-9_.-]+)\s*:/gm)) {
      const other = seen.get(match[1]);
      if (other && other !== file)
        throw new ConfigError(`config item "${match[1]}" is set by two layers: ${other} and ${file}`, {
          location: { file, field: match[1] },
        });
      seen.set(match[1], file);
    }
  }
  return parts.map((p) => (p.text.endsWith('\n') ? p.text : `${p.text}\n`)).join('');
}

/** `sha256:<hex>` over files in byte order of path: `path NUL length NUL content`. */
export function contentDigest(files: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256');
  const paths = [...files.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  for (const path of paths) {
    const content = Buffer.from(files.get(path)!, 'utf8');
    hash.update(`${path}\u0000${content.length}\u0000`);
    hash.update(content);
  }
  return `sha256:${hash.digest('hex')}`;
}
