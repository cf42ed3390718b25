import yaml from 'js-yaml';
import { ConfigError } from '../../shared/errors';
import { isRecord, scalarText, yamlTypeName } from '../config/plain-data';
import type { NodePool } from '../model/cluster';

/**
 * CLM's Karpenter pool methods (reference/clm-behaviour.md §2.1): `KarpenterRequirements` parses the pool config item
 * `requirements` (a YAML list of Kubernetes NodeSelectorRequirements), `KarpenterInstanceTypeStrategy` says how the
 * pool chose its instance types.
 */

/** A corev1 NodeSelectorRequirement with the Go field names templates use (`{{Key}}`, `{{Operator}}`, `{{Values}}`). */
export interface KarpenterRequirement {
  readonly Key: string;
  readonly Operator: string;
  readonly Values: readonly string[];
}

const OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']);

export type KarpenterInstanceTypeStrategy = 'not-specified' | 'default-for-karpenter' | 'custom';

/** `not-specified` / `default-for-karpenter` when the instance list is exactly that one value, else `custom`. */
export function karpenterInstanceTypeStrategy(pool: Pick<NodePool, 'instanceTypes'>): KarpenterInstanceTypeStrategy {
  const [only, ...rest] = pool.instanceTypes;
  if (rest.length === 0 && (only === 'not-specified' || only === 'default-for-karpenter')) return only;
  return 'custom';
}

/**
 * The pool's `requirements` item as a list (empty when the item is absent or blank). Anything but a YAML list of
 * mappings with a string `key`, a known `operator` and (optionally) a list of scalar `values` is a ConfigError naming
 * the cluster, the pool and the field.
 */
export function karpenterRequirements(
  pool: Pick<NodePool, 'name' | 'configItems'>,
  clusterId?: string,
): KarpenterRequirement[] {
  const raw = pool.configItems.requirements;
  if (raw === undefined || raw.trim() === '') return [];
  const field = `node_pools.${pool.name}.config_items.requirements`;
  const fail = (why: string): never => {
    throw new ConfigError(
      `node pool "${pool.name}"${clusterId ? ` of cluster ${clusterId}` : ''}: config item requirements ${why}`,
      { location: { ...(clusterId ? { clusterId } : {}), field } },
    );
  };
  let parsed: unknown;
  try {
    parsed = yaml.load(raw, { schema: yaml.CORE_SCHEMA });
  } catch (error) {
    const e = error as { reason?: string; mark?: { line: number } };
    return fail(
      `is not valid YAML${e.mark ? ` (line ${e.mark.line + 1} of the item)` : ''}: ${e.reason ?? (error as Error).message}`,
    );
  }
  if (parsed === null || parsed === undefined) return [];
  if (!Array.isArray(parsed))
    return fail(`must be a YAML list of NodeSelectorRequirements, found ${yamlTypeName(parsed)}`);
  return parsed.map((entry, index) => {
    if (!isRecord(entry))
      return fail(`[${index}] must be a mapping (key, operator, values), found ${yamlTypeName(entry)}`);
    const key = scalarText(entry.key);
    if (!key) return fail(`[${index}] needs a key`);
    const operator = scalarText(entry.operator) ?? '';
    if (!OPERATORS.has(operator))
      return fail(`[${index}] (key ${key}): operator must be one of ${[...OPERATORS].join(', ')}, found "${operator}"`);
    const values = entry.values ?? [];
    if (!Array.isArray(values)) return fail(`[${index}] (key ${key}): values must be a list`);
    return {
      Key: key,
      Operator: operator,
      Values: values.map((value, i) => scalarText(value) ?? fail(`[${index}].values[${i}] must be a scalar`)),
    };
  });
}
