/** Small checks on parsed YAML data, shared by the config, deletions and CloudFormation parsers. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A YAML scalar as text, the way Go's YAML decoder fills a string field: `3` → "3", `true` → "true",
 * an empty value → "". Undefined for mappings and lists.
 */
export function scalarText(value: unknown): string | undefined {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}

/** A short description of a value's YAML type for error messages. */
export function yamlTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `a ${typeof value}`;
}
