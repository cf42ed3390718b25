/**
 * The exports of a dynamically imported CommonJS package. Run from TypeScript (tsx, ts-jest, the CommonJS Lambda
 * bundles) `import()` gives the exports themselves; in the CLI's ES-module bundle, a package that is also imported
 * statically elsewhere comes back as `{ default: exports }` — whose named exports would then be undefined.
 */
export async function importCjs<T extends object>(loading: Promise<T>): Promise<T> {
  const loaded = (await loading) as T & { default?: T };
  const keys = Object.keys(loaded).filter((key) => key !== '__esModule');
  return keys.length === 1 && keys[0] === 'default' && loaded.default ? loaded.default : loaded;
}
