/**
 * CLM's file registry reads config items into Go strings, so an unquoted number (`vm_dirty_bytes: 134217728`)
 * is accepted and taken as it is written. We accept it too, with a warning: the value becomes the number's text
 * exactly as written in the file (`1.50` stays "1.50", `0x1F` stays "0x1F"), found by parsing the file a second
 * time with numbers kept as text (only when a config item is a number).
 */
import yaml from 'js-yaml';
import { isRecord } from '../config/plain-data';
import { YAML_TYPES } from '../config/yaml-data';
import type { FieldIssue } from './validate-wire-cluster';
import type { DocPath } from './yaml-positions';

const TYPES = YAML_TYPES;

const asText = (tag: string, type: yaml.Type): yaml.Type =>
  new yaml.Type(tag, { kind: 'scalar', resolve: (data: string) => type.resolve(data), construct: String });

const NUMBERS_AS_TEXT = yaml.FAILSAFE_SCHEMA.extend({
  implicit: [
    TYPES.null,
    TYPES.bool,
    asText('tag:yaml.org,2002:int', TYPES.int),
    asText('tag:yaml.org,2002:float', TYPES.float),
  ],
});

/** The `config_items` maps of one cluster document: its own and each pool's, with their paths. */
function itemMaps(cluster: Record<string, unknown>): { path: DocPath; items: Record<string, unknown> }[] {
  const maps: { path: DocPath; items: Record<string, unknown> }[] = [];
  if (isRecord(cluster.config_items)) maps.push({ path: ['config_items'], items: cluster.config_items });
  if (Array.isArray(cluster.node_pools))
    cluster.node_pools.forEach((pool: unknown, i) => {
      if (isRecord(pool) && isRecord(pool.config_items))
        maps.push({ path: ['node_pools', i, 'config_items'], items: pool.config_items });
    });
  return maps;
}

function at(doc: unknown, path: DocPath): unknown {
  let current = doc;
  for (const segment of path)
    current = isRecord(current) || Array.isArray(current) ? (current as never)[segment] : undefined;
  return current;
}

/**
 * Replaces, in place, every number among the config items of `clusters[i]` documents by its text from `source`,
 * and returns a warning per replaced item (path relative to the cluster).
 */
export function configItemNumbersAsText(clusters: readonly unknown[], source: string): Map<number, FieldIssue[]> {
  const warnings = new Map<number, FieldIssue[]>();
  let texts: unknown;
  clusters.forEach((cluster, index) => {
    if (!isRecord(cluster)) return;
    for (const { path, items } of itemMaps(cluster)) {
      for (const [key, value] of Object.entries(items)) {
        if (typeof value !== 'number') continue;
        texts ??= yaml.load(source, { schema: NUMBERS_AS_TEXT });
        const text = at(texts, ['clusters', index, ...path, key]);
        items[key] = typeof text === 'string' ? text : String(value);
        const list = warnings.get(index) ?? [];
        list.push({
          path: [...path, key],
          message: `unquoted number taken as the text "${String(items[key])}" (as CLM does); quote it in YAML`,
        });
        warnings.set(index, list);
      }
    }
  });
  return warnings;
}
