import { ClmError } from '../../shared/errors';
import { LAYERS, LAYER_DIRECTORIES, type Layer } from './stack-layers';
import { METADATA_FILE, parseStackMetadata, type StackMetadata } from './stack-metadata';
import { PROVIDERS_DIR, parseStackRef } from './stack-ref';
import { kubernetesMinor } from './stack-metadata';

/** One reason `clm stack lint` fails, with the files to look at. */
export interface LintFinding {
  readonly stack: string;
  readonly files: readonly string[];
  readonly message: string;
}

/** Files of a config repository (posix paths from its root); only `providers/…` is read. */
export type RepoFiles = ReadonlyMap<string, string>;

/** The stack directories `providers/<provider>/<stack>/<k8s>/` of a repository, with their files (relative). */
export function stacksOf(files: RepoFiles): Map<string, Map<string, string>> {
  const stacks = new Map<string, Map<string, string>>();
  for (const [path, content] of files) {
    const parts = path.split('/');
    if (parts[0] !== PROVIDERS_DIR || parts.length < 5) continue;
    const name = parts.slice(1, 4).join('/');
    if (!stacks.has(name)) stacks.set(name, new Map());
    stacks.get(name)!.set(parts.slice(4).join('/'), content);
  }
  return stacks;
}

/**
 * Lint the cluster stacks of a repository: every stack has a valid metadata.yaml whose Kubernetes version fits
 * its directory; and, against a reference (`--against REF`), a layer whose content changed bumped its component
 * version (cluster-addon, node-image) and the stack version (any layer). Findings name the changed files.
 */
export function lintStacks(current: RepoFiles, reference?: RepoFiles): LintFinding[] {
  const findings: LintFinding[] = [];
  const before = reference ? stacksOf(reference) : undefined;
  for (const [name, files] of [...stacksOf(current)].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const metadata = checkedMetadata(name, files, findings);
    const old = before?.get(name);
    if (!metadata || !old) continue;
    const oldMetadata = safeMetadata(name, old);
    if (oldMetadata) findings.push(...versionFindings(name, files, old, metadata, oldMetadata));
  }
  return findings;
}

function checkedMetadata(name: string, files: Map<string, string>, findings: LintFinding[]): StackMetadata | undefined {
  const file = `${PROVIDERS_DIR}/${name}/${METADATA_FILE}`;
  const text = files.get(METADATA_FILE);
  if (text === undefined) {
    findings.push({ stack: name, files: [file], message: `${file}: missing (the stack's versions' source of truth)` });
    return undefined;
  }
  try {
    const ref = parseStackRef(name, { file });
    const metadata = parseStackMetadata(text, file);
    const { major, minor } = kubernetesMinor(metadata.kubernetes);
    if (major !== ref.kubernetes.major || minor !== ref.kubernetes.minor)
      throw new ClmError(
        `${file}, field versions.kubernetes: ${metadata.kubernetes} does not belong in ${ref.kubernetesDir}`,
      );
    return metadata;
  } catch (error) {
    findings.push({ stack: name, files: [file], message: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

function safeMetadata(name: string, files: Map<string, string>): StackMetadata | undefined {
  const text = files.get(METADATA_FILE);
  try {
    return text === undefined ? undefined : parseStackMetadata(text, `${name}/${METADATA_FILE}`);
  } catch {
    return undefined; // the reference was broken: only the current metadata is checked
  }
}

/** The files of a layer that were added, removed or changed. */
function changedFiles(layer: Layer, now: Map<string, string>, before: Map<string, string>): string[] {
  const prefix = `${LAYER_DIRECTORIES[layer]}/`;
  const paths = new Set([...now.keys(), ...before.keys()].filter((p) => p.startsWith(prefix)));
  return [...paths].filter((p) => now.get(p) !== before.get(p)).sort();
}

function versionFindings(
  name: string,
  now: Map<string, string>,
  before: Map<string, string>,
  metadata: StackMetadata,
  old: StackMetadata,
): LintFinding[] {
  const findings: LintFinding[] = [];
  const where = (path: string) => `${PROVIDERS_DIR}/${name}/${path}`;
  const changedLayers: string[] = [];
  const allChanged: string[] = [];
  for (const layer of LAYERS) {
    const changed = changedFiles(layer, now, before);
    if (!changed.length) continue;
    changedLayers.push(LAYER_DIRECTORIES[layer]);
    allChanged.push(...changed);
    if (layer !== 'clusterClass' && metadata.components[layer] === old.components[layer])
      findings.push({
        stack: name,
        files: changed.map(where),
        message: `layer ${LAYER_DIRECTORIES[layer]} changed (${changed.map(where).join(', ')}) but versions.components.${layer} is still ${old.components[layer]}`,
      });
  }
  const kubernetes = metadata.kubernetes !== old.kubernetes ? ['versions.kubernetes'] : [];
  const componentBump =
    metadata.components.clusterAddon !== old.components.clusterAddon ||
    metadata.components.nodeImage !== old.components.nodeImage;
  if ((changedLayers.length || kubernetes.length || componentBump) && metadata.clusterStack === old.clusterStack) {
    const what = [
      ...changedLayers.map((l) => `layer ${l}`),
      ...kubernetes,
      ...(componentBump ? ['a component version'] : []),
    ];
    findings.push({
      stack: name,
      files: [where(METADATA_FILE), ...allChanged.map(where)],
      message: `${what.join(', ')} changed but versions.clusterStack is still ${old.clusterStack} (${where(METADATA_FILE)})`,
    });
  }
  return findings;
}
