import { ValidationError } from '../../shared/errors';
import { isRecord, yamlTypeName } from '../config/plain-data';
import { loadYaml } from '../config/yaml-error';
import type { CfDeletion, CfDeletions } from './deletion';
import { topLevelLists } from './parse-deletions';

/**
 * Parse and validate a rendered `cf-deletions.yaml` (§5.2): `pre_apply` / `post_apply` lists of
 * `{ stackName }`. Every problem is reported; any problem throws one ValidationError.
 */
export function parseCfDeletions(text: string, file: string): CfDeletions {
  const doc = loadYaml(text, file);
  const issues: string[] = [];
  const result = { preApply: [] as CfDeletion[], postApply: [] as CfDeletion[] };
  for (const [key, list] of topLevelLists(doc, file, issues)) {
    list.forEach((entry, index) => {
      const where = `${file}: ${key}[${index}]`;
      const deletion = parseEntry(entry, where, issues);
      if (deletion) (key === 'pre_apply' ? result.preApply : result.postApply).push(deletion);
    });
  }
  if (issues.length)
    throw new ValidationError(`invalid cf-deletions (${issues.length} problem${issues.length > 1 ? 's' : ''})`, {
      location: { file },
      issues,
    });
  return result;
}

function parseEntry(entry: unknown, where: string, issues: string[]): CfDeletion | undefined {
  if (!isRecord(entry)) {
    issues.push(`${where}: expected a mapping with stackName, found ${yamlTypeName(entry)}`);
    return undefined;
  }
  const before = issues.length;
  for (const key of Object.keys(entry)) {
    if (key !== 'stackName') issues.push(`${where}: unknown field "${key}" (only stackName is supported)`);
  }
  const { stackName } = entry;
  if (stackName === undefined || stackName === null || stackName === '') issues.push(`${where}: stackName is required`);
  else if (typeof stackName !== 'string')
    issues.push(`${where}: stackName must be a string, found ${yamlTypeName(stackName)}`);
  return issues.length > before ? undefined : { stackName: stackName as string };
}
