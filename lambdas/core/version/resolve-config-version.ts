import { ConfigError } from '../../shared/errors';
import type { ConfigSnapshot } from '../../ports/config-source';
import { clusterStackPin, stackRefText } from '../cluster-stacks/stack-ref';
import { resolveClusterStack, stackVersionTag } from '../cluster-stacks/resolve-stack';
import type { Cluster } from '../model/cluster';
import { didYouMean } from '../model/did-you-mean';

/** What version resolution needs of a config source (the ConfigSource port satisfies it). */
export interface VersionResolver {
  readonly name: string;
  resolveVersion(channel: string): Promise<string>;
  /** Needed for clusters that pin a cluster stack: its metadata.yaml names the stack version. */
  checkout?(version: string): Promise<ConfigSnapshot>;
}

export interface ResolvedSourceVersion {
  readonly name: string;
  /** The channel asked for: the cluster's channel, or its `override_channel` entry for this source. */
  readonly channel: string;
  readonly version: string;
}

export interface ResolvedConfigVersion {
  /** One source: its version id. Several: `name1=<id>;name2=<id>` in flag order (CLM `channel/combined.go`). */
  readonly id: string;
  /** Per source, in flag order: what to check out. */
  readonly sources: readonly ResolvedSourceVersion[];
}

export const OVERRIDE_CHANNEL_ITEM = 'override_channel';

/**
 * The per-source channel overrides of a cluster, from its config item `override_channel`
 * (`source=ref,other=ref`). Blank entries (a trailing comma) are ignored; an entry without `=`, with an
 * empty side, or naming a source twice is an error for this cluster naming the item. When `sourceNames`
 * is given, an unknown source name is an error too.
 */
export function channelOverrides(
  cluster: Pick<Cluster, 'id' | 'configItems'>,
  sourceNames?: readonly string[],
): Map<string, string> {
  const overrides = new Map<string, string>();
  const raw = cluster.configItems[OVERRIDE_CHANNEL_ITEM];
  if (raw === undefined) return overrides;
  const fail = (message: string): never => {
    throw new ConfigError(`config item ${OVERRIDE_CHANNEL_ITEM} ${JSON.stringify(raw)}: ${message}`, {
      location: { clusterId: cluster.id, field: `config_items.${OVERRIDE_CHANNEL_ITEM}` },
    });
  };
  for (const entry of raw.split(',')) {
    const trimmed = entry.trim();
    if (trimmed === '') continue;
    const at = trimmed.indexOf('=');
    const name = at < 0 ? '' : trimmed.slice(0, at).trim();
    const ref = at < 0 ? '' : trimmed.slice(at + 1).trim();
    if (name === '' || ref === '') fail(`entry ${JSON.stringify(trimmed)} is not source=ref`);
    if (overrides.has(name)) fail(`source ${name} is overridden twice`);
    if (sourceNames && !sourceNames.includes(name)) {
      fail(
        `unknown config source ${JSON.stringify(name)}${didYouMean(name, sourceNames)}; known sources: ${sourceNames.join(', ')}`,
      );
    }
    overrides.set(name, ref);
  }
  return overrides;
}

/**
 * Resolve the config version a cluster should be at: for each source (in flag order) the cluster's channel,
 * or its override, resolved by the source (git: commit SHA; directory: content hash). A single source's id
 * is its version alone; several give `name=<id>;…`, as CLM does, so existing `current_version` strings
 * keep matching. Unlike CLM, an override also applies when there is only one source.
 *
 * `cache` (optional, keyed by source and channel) lets a caller resolve a whole fleet with one lookup per
 * distinct channel.
 */
export async function resolveClusterConfigVersion(
  cluster: Pick<Cluster, 'id' | 'channel' | 'configItems'>,
  sources: readonly VersionResolver[],
  options: { cache?: Map<string, Promise<string>> } = {},
): Promise<ResolvedConfigVersion> {
  if (sources.length === 0)
    throw new ConfigError('no config source configured', { location: { clusterId: cluster.id } });
  const overrides = channelOverrides(
    cluster,
    sources.map((s) => s.name),
  );
  const resolved = await Promise.all(
    sources.map(async (source) => {
      const channel = overrides.get(source.name) ?? cluster.channel;
      const version = await cached(options.cache, `${source.name}\u0000${channel}`, () =>
        source.resolveVersion(channel),
      );
      return { name: source.name, channel, version };
    }),
  );
  const id = resolved.length === 1 ? resolved[0].version : resolved.map((s) => `${s.name}=${s.version}`).join(';');
  const stack = await stackTag(cluster, sources, resolved, options.cache);
  return { id: stack ? `${id};${stack}` : id, sources: resolved };
}

/**
 * For a cluster pinning a cluster stack, the part of its version naming the stack (`stack=aws/default/1-30@v4`),
 * read from the stack's metadata.yaml at the resolved source versions (checkouts shared through `cache`).
 */
async function stackTag(
  cluster: Pick<Cluster, 'id' | 'configItems'>,
  sources: readonly VersionResolver[],
  resolved: readonly ResolvedSourceVersion[],
  cache: Map<string, Promise<string>> | undefined,
): Promise<string | undefined> {
  const pin = clusterStackPin(cluster);
  if (!pin) return undefined;
  // A released version names itself; its tarball is read (and checked against the digest) when the run checks out.
  if (pin.digest) return stackVersionTag({ name: stackRefText(pin.ref), metadata: { clusterStack: pin.version } });
  const snapshots = await Promise.all(
    resolved.map((r, index) => {
      const source = sources[index];
      if (!source.checkout)
        throw new ConfigError(
          `config source ${source.name} cannot be read, so the cluster's stack cannot be resolved`,
          {
            location: { clusterId: cluster.id, field: 'config_items.cluster_stack' },
          },
        );
      return checkoutOnce(source, r.version, cache);
    }),
  );
  const stack = resolveClusterStack(cluster, snapshots);
  return stack ? stackVersionTag(stack) : undefined;
}

/** Fleet-wide resolution checks each source version out once (the cache holds the promise under a private key). */
const checkouts = new WeakMap<Map<string, Promise<string>>, Map<string, Promise<ConfigSnapshot>>>();
function checkoutOnce(
  source: VersionResolver,
  version: string,
  cache: Map<string, Promise<string>> | undefined,
): Promise<ConfigSnapshot> {
  if (!cache) return source.checkout!(version);
  let shared = checkouts.get(cache);
  if (!shared) checkouts.set(cache, (shared = new Map()));
  const key = `${source.name}\u0000${version}`;
  let entry = shared.get(key);
  if (!entry) {
    entry = source.checkout!(version);
    shared.set(key, entry);
    entry.catch(() => shared.delete(key));
  }
  return entry;
}

function cached(
  cache: Map<string, Promise<string>> | undefined,
  key: string,
  load: () => Promise<string>,
): Promise<string> {
  if (!cache) return load();
  let entry = cache.get(key);
  if (!entry) {
    entry = load();
    cache.set(key, entry);
    // A failure is not remembered: the next caller tries again.
    entry.catch(() => cache.delete(key));
  }
  return entry;
}

/**
 * Split a config version id back into per-source versions (the inverse of the id above), e.g. to check out
 * what a stored target version names. Returns undefined if the id does not fit the sources.
 */
export function splitConfigVersion(withStack: string, sourceNames: readonly string[]): Map<string, string> | undefined {
  const id = withStack.replace(/;stack=[^;#]*$/, '');
  if (sourceNames.length === 1) return id === '' ? undefined : new Map([[sourceNames[0], id]]);
  const parts = id.split(';');
  if (parts.length !== sourceNames.length) return undefined;
  const result = new Map<string, string>();
  for (const [index, part] of parts.entries()) {
    const prefix = `${sourceNames[index]}=`;
    if (!part.startsWith(prefix) || part.length === prefix.length) return undefined;
    result.set(sourceNames[index], part.slice(prefix.length));
  }
  return result;
}
