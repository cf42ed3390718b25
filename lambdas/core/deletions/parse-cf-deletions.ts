import { isRecord, yamlTypeName } from '../config/plain-data';
import type { CfDeletion, CfDeletions } from './deletion';
import { parsePrePostLists } from './parse-pre-post-lists';

/**
 * Parse and validate a rendered `cf-deletions.yaml` (§5.2): `pre_apply` / `post_apply` lists of
 * `{ stackName }`. Every problem is reported; any problem throws one ValidationError.
 */
export function parseCfDeletions(text: string, file: string): CfDeletions {
  return parsePrePostLists(text, file, 'cf-deletions', parseEntry);
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
