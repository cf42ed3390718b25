import { ConfigError } from '../../shared/errors';
import type { ConfigSnapshot } from '../../ports/config-source';
import type { Cluster } from '../model/cluster';
import { kubernetesMinor, METADATA_FILE, parseStackMetadata, type StackMetadata } from './stack-metadata';
import { clusterTree, stackLayers, type Layer } from './stack-layers';
import {
  clusterStackPin,
  LATEST,
  stackDirectory,
  stackRefText,
  STACK_VERSION_ITEM,
  type StackPin,
  type StackRef,
} from './stack-ref';

/** A cluster's stack as one config source holds it. */
export interface ResolvedStack {
  readonly ref: StackRef;
  /** `aws/default/1-30`. */
  readonly name: string;
  /** The config source holding it. */
  readonly source: string;
  readonly metadata: StackMetadata;
  readonly digests: Readonly<Record<Layer, string>>;
  /** The `cluster/…` tree its layers make. */
  readonly tree: ReadonlyMap<string, string>;
  /** A released version (the cluster pins `vN@sha256:…`): where its tarball was read and its digest. */
  readonly release?: { readonly digest: string; readonly location: string };
}

/** The files of one stack directory (paths relative to it), or undefined when the snapshot has none. */
export function stackFiles(snapshot: ConfigSnapshot, ref: StackRef): Map<string, string> | undefined {
  const prefix = stackDirectory(ref);
  const files = new Map<string, string>();
  for (const [path, content] of snapshot.files)
    if (path.startsWith(prefix)) files.set(path.slice(prefix.length), content);
  return files.size ? files : undefined;
}

/** Read and check one stack directory of a snapshot: metadata.yaml present and valid, Kubernetes matching the directory. */
export function readStack(snapshot: ConfigSnapshot, ref: StackRef): ResolvedStack | undefined {
  const files = stackFiles(snapshot, ref);
  if (!files) return undefined;
  return stackFromFiles(files, ref, snapshot.sourceName, `${snapshot.sourceName}/${stackDirectory(ref)}`);
}

/** A stack from the files of its directory; `where` names them in errors (`main/providers/aws/default/1-30/`). */
export function stackFromFiles(
  files: ReadonlyMap<string, string>,
  ref: StackRef,
  source: string,
  where: string,
): ResolvedStack {
  const file = `${where}${METADATA_FILE}`;
  const text = files.get(METADATA_FILE);
  if (text === undefined)
    throw new ConfigError(`the cluster stack has no ${METADATA_FILE} (its versions' source of truth)`, {
      location: { file },
    });
  const metadata = parseStackMetadata(text, file);
  const { major, minor } = kubernetesMinor(metadata.kubernetes);
  if (major !== ref.kubernetes.major || minor !== ref.kubernetes.minor)
    throw new ConfigError(`Kubernetes ${metadata.kubernetes} does not belong in directory ${ref.kubernetesDir}`, {
      location: { file, field: 'versions.kubernetes' },
    });
  const layers = stackLayers(files);
  return {
    ref,
    name: stackRefText(ref),
    source,
    metadata,
    digests: layers.digests,
    tree: clusterTree(layers, where),
  };
}

/**
 * A released stack from its verified tarball's files. It stands in for the `cluster/…` tree of the main (first)
 * config source, whatever that source's tree holds now; its metadata.yaml must name the pinned version.
 */
export function releasedStack(
  cluster: Pick<Cluster, 'id'>,
  pin: StackPin & { readonly digest: string },
  files: ReadonlyMap<string, string>,
  release: { readonly source: string; readonly location: string },
): ResolvedStack {
  const stack = stackFromFiles(files, pin.ref, release.source, `${release.location}:`);
  if (stack.metadata.clusterStack !== pin.version)
    throw new ConfigError(
      `pins cluster stack ${stack.name} ${pin.version}@${pin.digest}, but the release at ${release.location} is ${stack.metadata.clusterStack}`,
      { location: { clusterId: cluster.id, field: `config_items.${STACK_VERSION_ITEM}` } },
    );
  return { ...stack, release: { digest: pin.digest, location: release.location } };
}

/**
 * The stack a cluster pins, from the first source that holds its directory. A pinned version (`vN`) must be
 * the one the source holds at the cluster's channel (point the channel or `override_channel` at a ref that
 * holds it); `latest` follows whatever the channel holds. Undefined when the cluster pins no stack.
 */
export function resolveClusterStack(
  cluster: Pick<Cluster, 'id' | 'configItems'>,
  snapshots: readonly ConfigSnapshot[],
): ResolvedStack | undefined {
  const pin = clusterStackPin(cluster);
  if (!pin) return undefined;
  if (pin.digest)
    throw new ConfigError(
      `pins the released cluster stack ${stackRefText(pin.ref)} ${pin.version}@${pin.digest}, which is read from the release store, not a config source (this command has none)`,
      { location: { clusterId: cluster.id, field: `config_items.${STACK_VERSION_ITEM}` } },
    );
  for (const snapshot of snapshots) {
    const stack = readStack(snapshot, pin.ref);
    if (stack) return checkPinnedVersion(cluster.id, pin, stack, snapshot.version);
  }
  throw new ConfigError(
    `no config source holds cluster stack ${stackRefText(pin.ref)} (looked for ${stackDirectory(pin.ref)} in ${snapshots
      .map((s) => s.sourceName)
      .join(', ')})`,
    { location: { clusterId: cluster.id, field: 'config_items.cluster_stack' } },
  );
}

function checkPinnedVersion(clusterId: string, pin: StackPin, stack: ResolvedStack, at: string): ResolvedStack {
  if (pin.version === LATEST || pin.version === stack.metadata.clusterStack) return stack;
  throw new ConfigError(
    `pins cluster stack ${stack.name} at ${pin.version}, but config source ${stack.source} holds ${stack.metadata.clusterStack} at ${at}; point the cluster's channel (or override_channel) at a ref that holds ${pin.version}, or set ${STACK_VERSION_ITEM}: ${LATEST} to follow the channel`,
    { location: { clusterId, field: `config_items.${STACK_VERSION_ITEM}` } },
  );
}

/** The snapshots a pinned cluster renders from: the holding source's `cluster/…` tree is the stack's. */
export function withStackTree(
  snapshots: readonly ConfigSnapshot[],
  stack: ResolvedStack | undefined,
): ConfigSnapshot[] {
  if (!stack) return [...snapshots];
  return snapshots.map((snapshot) => {
    if (snapshot.sourceName !== stack.source) return snapshot;
    const files = new Map([...snapshot.files].filter(([path]) => !path.startsWith('cluster/')));
    for (const [path, content] of stack.tree) files.set(path, content);
    return { ...snapshot, files };
  });
}

/** The part of a config version that names the stack: `stack=aws/default/1-30@v4`. */
export function stackVersionTag(stack: {
  readonly name: string;
  readonly metadata: Pick<StackMetadata, 'clusterStack'>;
}): string {
  return `stack=${stack.name}@${stack.metadata.clusterStack}`;
}

/** `…;stack=aws/default/1-30@v4#hash` → { name, version }, or undefined for a version without a stack. */
export function stackOfVersion(version: string): { readonly name: string; readonly version: string } | undefined {
  const match = /(?:^|;)stack=([^@;#]+)@(v\d+)(?:#|$)/.exec(version);
  return match ? { name: match[1], version: match[2] } : undefined;
}
