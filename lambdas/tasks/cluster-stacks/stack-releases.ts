/**
 * Released cluster stacks in a release store: `<provider>/<stack>/<k8s>/<vN>.tar.gz` and `<vN>.sha256` (the
 * tarball's `sha256:<hex>`) under its root — a directory, `s3://bucket/prefix`, or (what the tasks read) the
 * artefact bucket under `stack-releases/`. `clm stack release` writes them; a cluster pinning
 * `cluster_stack_version: vN@sha256:<hex>` reads its tarball, checks it against the pinned digest, and renders from
 * exactly that content.
 */
import { archiveDigest, unpackStackArchive } from '../../core/cluster-stacks/stack-archive';
import { releasedStack, resolveClusterStack, type ResolvedStack } from '../../core/cluster-stacks/resolve-stack';
import { clusterStackPin, stackRefText, STACK_VERSION_ITEM, type StackRef } from '../../core/cluster-stacks/stack-ref';
import type { Cluster } from '../../core/model/cluster';
import type { ArtifactStore } from '../../ports/artifact-store';
import type { ConfigSnapshot } from '../../ports/config-source';
import { ConfigError } from '../../shared/errors';

/** Where released stacks live in the artefact bucket (the tasks' `artifacts` port). */
export const RELEASES_PREFIX = 'stack-releases/';

/** The keys of one released version, relative to the release store's root. */
export function releaseKeys(ref: StackRef, version: string): { readonly tarball: string; readonly digest: string } {
  const base = `${stackRefText(ref)}/${version}`;
  return { tarball: `${base}.tar.gz`, digest: `${base}.sha256` };
}

const locationOf = (store: ArtifactStore, key: string) => store.locationOf?.(key) ?? key;

/** The release store the tasks read: the artefact store's objects under `stack-releases/`. */
export function releasesIn(artifacts: ArtifactStore): ArtifactStore {
  const at = (key: string) => `${RELEASES_PREFIX}${key}`;
  return {
    put: (key, body) => artifacts.put(at(key), body),
    get: (key) => artifacts.get(at(key)),
    putOnce: (key, body) => artifacts.putOnce(at(key), body),
    getBytes: (key) => artifacts.getBytes(at(key)),
    locationOf: (key) => locationOf(artifacts, at(key)),
  };
}

/**
 * The stack a cluster pins: a released version (`vN@sha256:…`) from the release store, verified against its
 * digest; otherwise from the config sources' trees (resolveClusterStack). Undefined without a pin.
 */
export async function loadClusterStack(
  cluster: Pick<Cluster, 'id' | 'configItems'>,
  snapshots: readonly ConfigSnapshot[],
  releases: ArtifactStore | undefined,
): Promise<ResolvedStack | undefined> {
  const pin = clusterStackPin(cluster);
  if (!pin?.digest || !releases) return resolveClusterStack(cluster, snapshots);
  const key = releaseKeys(pin.ref, pin.version).tarball;
  const location = locationOf(releases, key);
  const fail = (message: string): never => {
    throw new ConfigError(`pins cluster stack ${stackRefText(pin.ref)} ${pin.version}@${pin.digest}: ${message}`, {
      location: { clusterId: cluster.id, field: `config_items.${STACK_VERSION_ITEM}` },
    });
  };
  const bytes = await releases.getBytes(key);
  if (!bytes)
    return fail(
      `no released tarball at ${location} (release it with clm stack release --stack ${stackRefText(pin.ref)})`,
    );
  const digest = archiveDigest(bytes);
  if (digest !== pin.digest)
    return fail(
      `the tarball at ${location} is ${digest}, not the pinned digest: it is not the release the cluster pins`,
    );
  let files: Map<string, string>;
  try {
    files = unpackStackArchive(bytes);
  } catch (error) {
    return fail(`the tarball at ${location} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const source = snapshots[0]?.sourceName ?? 'main';
  return releasedStack(cluster, { ...pin, digest: pin.digest }, files, { source, location });
}

export type ReleaseResult =
  | { readonly action: 'released' | 'unchanged'; readonly digest: string; readonly location: string }
  | { readonly action: 'refused'; readonly digest: string; readonly released: string; readonly location: string };

/**
 * Release one stack version into `store`: the tarball, then its digest, each written only where nothing is (so
 * a released version never changes, even with two releases racing). The same content again is `unchanged`; other
 * content under a released version is `refused` (nothing written), naming the digest released.
 */
export async function releaseStack(
  store: ArtifactStore,
  ref: StackRef,
  version: string,
  archive: { readonly bytes: Uint8Array; readonly digest: string },
): Promise<ReleaseResult> {
  const keys = releaseKeys(ref, version);
  const location = locationOf(store, keys.tarball);
  const releasedDigest = async () => (await store.get(keys.digest))?.trim();
  const existing = await releasedDigest();
  if (existing !== undefined)
    return existing === archive.digest
      ? { action: 'unchanged', digest: archive.digest, location }
      : { action: 'refused', digest: archive.digest, released: existing, location };
  if (!(await store.putOnce(keys.tarball, archive.bytes))) {
    // A tarball without its digest file: an earlier release stopped between the two writes, or one is racing us.
    const bytes = await store.getBytes(keys.tarball);
    const there = bytes ? archiveDigest(bytes) : 'nothing readable';
    if (there !== archive.digest) return { action: 'refused', digest: archive.digest, released: there, location };
  }
  if (!(await store.putOnce(keys.digest, `${archive.digest}\n`))) {
    const there = (await releasedDigest()) ?? 'nothing readable';
    if (there !== archive.digest) return { action: 'refused', digest: archive.digest, released: there, location };
    return { action: 'unchanged', digest: archive.digest, location };
  }
  return { action: 'released', digest: archive.digest, location };
}
