import yaml from 'js-yaml';
import { ConfigError } from '../../shared/errors';
import type { ConfigItems } from '../model/cluster';
import { isRecord, scalarText, yamlTypeName } from './plain-data';
import { loadYaml } from './yaml-error';

/**
 * `cluster/config-defaults.yaml` (reference/clm-behaviour.md §3.2, §4.2): a rendered template that must
 * be a flat map of strings. Scalars are read as their source text (`replicas: 3` → "3", as Go's decoder
 * fills a map[string]string); a nested mapping or list is an error naming the file and line.
 */
export function parseConfigDefaults(text: string, file: string): ConfigItems {
  // FAILSAFE keeps every scalar as its source text: `01` stays "01", `6h` stays "6h".
  const doc = loadYaml(text, file, yaml.FAILSAFE_SCHEMA);
  if (doc === undefined || doc === null) return {};
  if (!isRecord(doc)) {
    throw new ConfigError(
      `config defaults must be a mapping of config item names to strings, found ${yamlTypeName(doc)}`,
      { location: { file } },
    );
  }
  const items: ConfigItems = {};
  for (const [key, value] of Object.entries(doc)) {
    const itemText = scalarText(value);
    if (itemText === undefined) {
      throw new ConfigError(`config item "${key}" must be a string, found ${yamlTypeName(value)}`, {
        location: { file, line: lineOfKey(text, key), field: key },
      });
    }
    items[key] = itemText;
  }
  return items;
}

/** 1-based line of a top-level key in the text (js-yaml does not report node positions). */
export function lineOfKey(text: string, key: string): number | undefined {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => {
    const match = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#'"][^:]*?))\s*:(?:\s|$)/.exec(line);
    if (!match) return false;
    const found = match[1] ?? match[2]?.replaceAll("''", "'") ?? match[3];
    return found === key;
  });
  return index < 0 ? undefined : index + 1;
}

/**
 * Merge the defaults of all sources (later sources override earlier ones), then let the cluster's own
 * items win: defaults fill only keys the registry does not set (CLM `updateDefaults`).
 */
export function mergeConfigDefaults(defaultsBySource: readonly ConfigItems[], registryItems: ConfigItems): ConfigItems {
  const defaults: ConfigItems = Object.assign({}, ...defaultsBySource);
  return { ...defaults, ...registryItems };
}
