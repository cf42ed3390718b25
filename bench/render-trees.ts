/**
 * Two trees of rendered files (`clm render --out` and the CLM harness's) compared before any ratio is printed: the
 * same files, each the same bytes or, for YAML, the same data (Go's YAML encoder and ours quote and indent
 * differently; CLM writes empty fields of a deletion that we leave out). Gzipped user data (`H4sI…`, base64) is
 * compared decompressed: Go's gzip and zlib compress the same text to different bytes.
 */
import { gunzipSync } from 'node:zlib';
import { isDeepStrictEqual } from 'node:util';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import yaml from 'js-yaml';
import { parseCfnTemplate } from '../lambdas/core/cloudformation/cfn-yaml';

export interface TreeComparison {
  readonly files: number;
  readonly identical: number;
  /** At most `limit` differences, each `path: what`. */
  readonly differences: readonly string[];
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

function parse(text: string, path: string): unknown {
  if (path.includes('/stacks/')) return gunzipped(parseCfnTemplate(text, path));
  return gunzipped(
    yaml.loadAll(text, undefined, { schema: yaml.CORE_SCHEMA }).filter((doc) => doc !== null && doc !== undefined),
  );
}

function gunzipped(value: unknown): unknown {
  if (typeof value === 'string' && value.startsWith('H4sI')) {
    try {
      return `gzip:${gunzipSync(Buffer.from(value, 'base64')).toString('utf8')}`;
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return value.map(gunzipped);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, gunzipped(v)]));
  return value;
}

/** Deletions: CLM's encoder writes every field of a deletion, empty ones as "" or null. */
function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== '' && !(typeof v === 'object' && Object.keys(v).length === 0))
        .map(([k, v]) => [k, withoutEmpty(v)]),
    );
  return value;
}

export function compareRenderTrees(ours: string, theirs: string, limit = 8): TreeComparison {
  // values.yaml records the values the templates were given (an input, not a render): only `clm render --out` writes it.
  const a = listFiles(ours).filter((path) => !path.endsWith('/values.yaml'));
  const b = listFiles(theirs);
  const differences: string[] = [];
  const note = (line: string) => {
    if (differences.length < limit) differences.push(line);
  };
  for (const path of a.filter((p) => !b.includes(p))) note(`${path}: only in clm render's output`);
  for (const path of b.filter((p) => !a.includes(p))) note(`${path}: only in CLM's output`);
  let identical = 0;
  for (const path of a.filter((p) => b.includes(p))) {
    const x = readFileSync(join(ours, path), 'utf8');
    const y = readFileSync(join(theirs, path), 'utf8');
    if (x === y) {
      identical++;
      continue;
    }
    let same = false;
    try {
      const normalize = path.endsWith('deletions.yaml') ? withoutEmpty : (v: unknown) => v;
      same = isDeepStrictEqual(normalize(parse(x, path)), normalize(parse(y, path)));
    } catch (error) {
      note(`${path}: differs, and one side is not YAML (${(error as Error).message.split('\n')[0]})`);
      continue;
    }
    if (!same) note(`${path}: different content`);
  }
  return { files: a.length, identical, differences };
}
