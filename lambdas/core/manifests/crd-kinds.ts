import type { RenderedManifestFile } from '../render/render-manifests';

/** Kind, singular and plural names (lower case) of the CRDs among the rendered manifests. */
export function crdKinds(manifests: readonly RenderedManifestFile[]): Set<string> {
  const kinds = new Set<string>();
  for (const file of manifests) {
    for (const object of file.objects) {
      if (object.kind !== 'CustomResourceDefinition') continue;
      const names = ((object as { spec?: { names?: Record<string, unknown> } }).spec?.names ?? {}) as Record<
        string,
        unknown
      >;
      for (const key of ['kind', 'plural', 'singular'])
        if (typeof names[key] === 'string') kinds.add((names[key] as string).toLowerCase());
    }
  }
  return kinds;
}
