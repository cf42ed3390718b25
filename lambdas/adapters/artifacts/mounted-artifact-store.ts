import type { ArtifactStore } from '../../ports/artifact-store';

/**
 * An ArtifactStore whose keys under `prefix` live in another store (the prefix taken off): `clm provision
 * --stack-releases DIR` mounts a release directory at `stack-releases/` of the artefact bucket, where the tasks
 * look for released cluster stacks. Everything else goes to `base`.
 */
export function mountedArtifactStore(base: ArtifactStore, prefix: string, mounted: ArtifactStore): ArtifactStore {
  const route = (key: string): [ArtifactStore, string] =>
    key.startsWith(prefix) ? [mounted, key.slice(prefix.length)] : [base, key];
  const store: ArtifactStore = {
    put: (key, body, options) => {
      const [target, inner] = route(key);
      return target.put(inner, body, options);
    },
    get: (key) => {
      const [target, inner] = route(key);
      return target.get(inner);
    },
    putOnce: (key, body) => {
      const [target, inner] = route(key);
      return target.putOnce(inner, body);
    },
    getBytes: (key) => {
      const [target, inner] = route(key);
      return target.getBytes(inner);
    },
    locationOf: (key) => {
      const [target, inner] = route(key);
      return target.locationOf?.(inner) ?? inner;
    },
  };
  return base.urlFor ? { ...store, urlFor: (key) => base.urlFor!(key) } : store;
}
