import { ValidationError } from '../../shared/errors';
import { isRecord, yamlTypeName } from '../config/plain-data';
import { loadYaml } from '../config/yaml-error';

const TOP_LEVEL_KEYS = ['pre_apply', 'post_apply'] as const;
type TopLevelKey = (typeof TOP_LEVEL_KEYS)[number];

/** The entries of a deletions file, before and after the manifests are applied. */
export interface PrePostLists<T> {
  readonly preApply: T[];
  readonly postApply: T[];
}

/** Parses one entry; `where` (`<file>: pre_apply[2]`) leads every issue it adds. Undefined when it added any. */
export type EntryParser<T> = (entry: unknown, where: string, issues: string[]) => T | undefined;

/**
 * Parse a rendered `deletions.yaml` or `cf-deletions.yaml` (§5.1, §5.2): a mapping of `pre_apply` and/or
 * `post_apply` lists, each entry read by `parseEntry`. Every problem is reported; any problem throws one
 * ValidationError (`invalid <what> (<n> problems)`) carrying them all. A YAML syntax error throws ConfigError.
 */
export function parsePrePostLists<T>(
  text: string,
  file: string,
  what: string,
  parseEntry: EntryParser<T>,
): PrePostLists<T> {
  const doc = loadYaml(text, file);
  const issues: string[] = [];
  const result: PrePostLists<T> = { preApply: [], postApply: [] };
  for (const [key, list] of topLevelLists(doc, file, issues)) {
    list.forEach((entry, index) => {
      const parsed = parseEntry(entry, `${file}: ${key}[${index}]`, issues);
      if (parsed) (key === 'pre_apply' ? result.preApply : result.postApply).push(parsed);
    });
  }
  if (issues.length)
    throw new ValidationError(`invalid ${what} (${issues.length} problem${issues.length > 1 ? 's' : ''})`, {
      location: { file },
      issues,
    });
  return result;
}

/** The `pre_apply` / `post_apply` lists of the document, in that order. */
function topLevelLists(doc: unknown, file: string, issues: string[]): [TopLevelKey, unknown[]][] {
  if (doc === undefined || doc === null) return [];
  if (!isRecord(doc)) {
    issues.push(`${file}: expected a mapping with pre_apply and/or post_apply, found ${yamlTypeName(doc)}`);
    return [];
  }
  const lists: [TopLevelKey, unknown[]][] = [];
  for (const [key, value] of Object.entries(doc)) {
    if (!(TOP_LEVEL_KEYS as readonly string[]).includes(key)) {
      issues.push(`${file}: unknown key "${key}" (allowed: ${TOP_LEVEL_KEYS.join(', ')})`);
    } else if (value === null) {
      lists.push([key as TopLevelKey, []]);
    } else if (!Array.isArray(value)) {
      issues.push(`${file}: ${key} must be a list, found ${yamlTypeName(value)}`);
    } else {
      lists.push([key as TopLevelKey, value]);
    }
  }
  return lists.sort(([a], [b]) => TOP_LEVEL_KEYS.indexOf(a) - TOP_LEVEL_KEYS.indexOf(b));
}
