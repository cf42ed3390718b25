/**
 * YAML as data for what CLM applies (manifests, CloudFormation templates, deletions):
 * - scalars keep the type they are written with: js-yaml's core schema plus `<<` merges and the explicit
 *   `!!binary`/`!!omap`/`!!pairs`/`!!set` tags, but no implicit timestamps, so `2010-09-09` stays a string (as
 *   Kubernetes and CLM's Go YAML read it) instead of becoming a date in JSON;
 * - a key given twice in a mapping: the last one wins, as in CLM, and each repetition is reported with its line.
 */
import yaml from 'js-yaml';
import { lineLocator } from '../model/yaml-positions';
import { fastLoadAll } from './fast-yaml';
import { yamlError } from './yaml-error';

type BuiltInType = 'null' | 'bool' | 'int' | 'float' | 'merge' | 'binary' | 'omap' | 'pairs' | 'set';
/** js-yaml's built-in types: exported at run time, missing from its type declarations. */
export const YAML_TYPES = (yaml as unknown as { types: Readonly<Record<BuiltInType, yaml.Type>> }).types;
const TYPES = YAML_TYPES;

export const DATA_SCHEMA: yaml.Schema = yaml.CORE_SCHEMA.extend({
  implicit: [TYPES.merge],
  explicit: [TYPES.binary, TYPES.omap, TYPES.pairs, TYPES.set],
});

export interface DuplicateKey {
  readonly key: string;
  readonly line: number;
}

interface Frame {
  readonly children: { readonly result: unknown; readonly start: number }[];
  readonly start: number;
}

/** All documents of `text`; duplicate keys are reported in `duplicates`, the last value kept. */
export function loadAllLastKeyWins(
  text: string,
  file: string,
  schema: yaml.Schema = DATA_SCHEMA,
): { documents: unknown[]; duplicates: DuplicateKey[] } {
  const fast = fastLoadAll(text, schema);
  if (fast) return { documents: fast, duplicates: [] };
  try {
    return { documents: yaml.loadAll(text, undefined, { filename: file, schema }), duplicates: [] };
  } catch (error) {
    if (!(error instanceof yaml.YAMLException) || error.reason !== 'duplicated mapping key')
      throw yamlError(error, file);
  }
  const lineAt = lineLocator(text);
  const duplicates: DuplicateKey[] = [];
  const stack: Frame[] = [];
  const listener = (event: 'open' | 'close', state: { position: number; result: unknown; kind: string | null }) => {
    if (event === 'open') {
      stack.push({ start: state.position, children: [] });
      return;
    }
    const frame = stack.pop();
    if (!frame) return;
    if (state.kind === 'mapping') duplicates.push(...repeatedKeys(frame, lineAt));
    stack.at(-1)?.children.push({ result: state.result, start: frame.start });
  };
  try {
    const documents = yaml.loadAll(text, undefined, {
      filename: file,
      schema,
      json: true,
      listener,
    } as yaml.LoadOptions);
    return { documents, duplicates: duplicates.sort((a, b) => a.line - b.line) };
  } catch (error) {
    throw yamlError(error, file);
  }
}

/** A mapping's children come as key, value, key, value… */
function repeatedKeys(frame: Frame, lineAt: (position: number) => number): DuplicateKey[] {
  const seen = new Set<string>();
  const repeated: DuplicateKey[] = [];
  for (let i = 0; i + 1 < frame.children.length; i += 2) {
    const { result, start } = frame.children[i];
    if (typeof result !== 'string' && typeof result !== 'number' && typeof result !== 'boolean') continue;
    const key = String(result);
    if (seen.has(key) && key !== '<<') repeated.push({ key, line: lineAt(start) });
    seen.add(key);
  }
  return repeated;
}
