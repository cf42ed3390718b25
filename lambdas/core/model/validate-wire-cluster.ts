import type * as z from '../../shared/zod';
import type { Cluster } from './cluster';
import { fromWireCluster } from './cluster-wire';
import { WIRE_KEYS, wireClusterSchema } from './wire-cluster-schema';
import type { WireMode } from './wire-cluster-schema';
import { didYouMean } from './did-you-mean';
import type { DocPath } from './yaml-positions';

/** One problem with one field, relative to the cluster document (`['node_pools', 0, 'max_size']`). */
export interface FieldIssue {
  readonly path: DocPath;
  readonly message: string;
}

export interface WireClusterResult {
  /** Set when there are no issues. */
  readonly cluster?: Cluster;
  readonly issues: readonly FieldIssue[];
  readonly warnings: readonly FieldIssue[];
}

/**
 * Validate one snake_case cluster document and convert it. Never throws: returns every issue found, each
 * with the path of the field and a message an operator can act on. The deprecated `instance_type: m5.large`
 * of CLM's README is accepted as `instance_types: [m5.large]` with a warning.
 */
export function validateWireCluster(raw: unknown, mode: WireMode): WireClusterResult {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { issues: [{ path: [], message: `expected a cluster mapping, got ${describeValue(raw)}` }], warnings: [] };
  }
  const warnings: FieldIssue[] = [];
  const issues: FieldIssue[] = [];
  const document = normalizeInstanceType(raw as Record<string, unknown>, warnings, issues);
  const parsed = wireClusterSchema(mode).safeParse(document);
  if (!parsed.success) issues.push(...parsed.error.issues.flatMap((issue) => describeIssue(issue, document)));
  if (issues.length > 0) return { issues, warnings };
  return { cluster: fromWireCluster(parsed.data!), issues, warnings };
}

/** `instance_type: x` (README, deprecated) → `instance_types: [x]`, on a copy. */
function normalizeInstanceType(
  raw: Record<string, unknown>,
  warnings: FieldIssue[],
  issues: FieldIssue[],
): Record<string, unknown> {
  if (!Array.isArray(raw.node_pools)) return raw;
  const pools = raw.node_pools.map((pool: unknown, index) => {
    if (pool === null || typeof pool !== 'object' || !('instance_type' in pool)) return pool;
    const { instance_type: single, ...rest } = pool as Record<string, unknown>;
    const path = ['node_pools', index, 'instance_type'];
    if (rest.instance_types !== undefined) {
      issues.push({ path, message: 'give either instance_types or the deprecated instance_type, not both' });
      return rest;
    }
    if (typeof single !== 'string' || single === '') {
      issues.push({
        path,
        message: `expected an instance type name, got ${describeValue(single)}; better: instance_types: [m5.large]`,
      });
      return rest;
    }
    warnings.push({ path, message: `instance_type is deprecated, use instance_types: [${single}]` });
    return { ...rest, instance_types: [single] };
  });
  return { ...raw, node_pools: pools };
}

function describeIssue(issue: z.core.$ZodIssue, document: unknown): FieldIssue[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  const value = valueAt(document, path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({
        path: [...path, key],
        message: `unknown field${didYouMean(key, knownKeysAt(path))}`,
      }));
    case 'invalid_type': {
      if (value === undefined) return [{ path, message: 'is required' }];
      const expected = issue.expected === 'int' ? 'an integer' : article(issue.expected);
      const hint =
        issue.expected === 'string' && (typeof value === 'number' || typeof value === 'boolean')
          ? `; quote it in YAML: "${String(value)}"`
          : '';
      return [{ path, message: `expected ${expected}, got ${describeValue(value)}${hint}` }];
    }
    case 'invalid_value': {
      const allowed = issue.values.map(String);
      return [
        {
          path,
          message: `${describeValue(value)} is not one of ${allowed.join(', ')}${typeof value === 'string' ? didYouMean(value, allowed) : ''}`,
        },
      ];
    }
    case 'invalid_key':
      return [{ path, message: issue.issues[0]?.message ?? 'invalid key' }];
    case 'too_small':
    case 'too_big':
      return [
        {
          path,
          message: issue.message.startsWith('Too')
            ? `${issue.message.toLowerCase()}, got ${describeValue(value)}`
            : issue.message,
        },
      ];
    default:
      return [{ path, message: issue.message }];
  }
}

function knownKeysAt(path: DocPath): readonly string[] {
  if (path.length === 0) return WIRE_KEYS.cluster;
  if (path[0] === 'node_pools' && path.length === 2) return WIRE_KEYS.nodePool;
  if (path[0] === 'status' && path.length === 1) return WIRE_KEYS.status;
  if (path[0] === 'status' && path[1] === 'problems' && path.length === 3) return WIRE_KEYS.problem;
  return [];
}

function valueAt(document: unknown, path: DocPath): unknown {
  let current = document;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** A short, safe rendering of a value for messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  return `${typeof value} ${String(value)}`;
}

/** `node_pools[0].max_size`, `config_items.foo`, `config_items["Bad-Key"]`. */
export function formatPath(path: DocPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}
