/**
 * Node-pool helpers, over pools as templates see them (CLM names: `Name`, `Profile`, `ConfigItems`):
 * `zoneDistributedNodePoolGroups`, `nodeLifeCycleProviderPerNodePoolGroup`, `asgSize`, `azCount`, and the
 * `taints` config item parser behind `NodePool.Taints`.
 */
import { describe, expectInteger, expectMap, helperError, isPlainMap } from './args';

/** A pool as the template context holds it (only what these helpers read). */
export interface TemplatePool {
  readonly Name?: string;
  readonly Profile: string;
  readonly ConfigItems: Readonly<Record<string, string>>;
}

export interface Taint {
  readonly Key: string;
  readonly Value: string;
  readonly Effect: string;
}

const TAINT_EFFECTS = ['NoSchedule', 'NoExecute', 'PreferNoSchedule'];

/** One `key[=value][:Effect]` spec; undefined when invalid (CLM skips invalid taints silently). */
export function parseTaint(spec: string): Taint | undefined {
  const parts = spec.split(':');
  if (parts.length === 1) {
    return parts[0].includes('=') ? undefined : { Key: parts[0], Value: '', Effect: '' };
  }
  if (parts.length !== 2 || !TAINT_EFFECTS.includes(parts[1])) return undefined;
  const kv = parts[0].split('=');
  if (kv.length > 2) return undefined;
  return { Key: kv[0], Value: kv[1] ?? '', Effect: parts[1] };
}

/** The pool config item `taints`: a comma list; undefined when the item is absent (CLM returns nil). */
export function parseTaints(item: string | undefined): Taint[] | undefined {
  if (item === undefined) return undefined;
  return item
    .split(',')
    .map(parseTaint)
    .filter((t): t is Taint => t !== undefined);
}

/** Pool size divided among `asgCount` ASGs; an error unless it divides exactly. */
export function asgSize(poolSize: unknown, asgCount: unknown): number {
  const size = expectInteger(poolSize, 'pool size');
  const count = expectInteger(asgCount, 'ASG count');
  if (count === 0) throw helperError('ASG count must not be 0');
  if (size % count !== 0) throw helperError(`pool size must be an exact multiple of ${count}`);
  return size / count;
}

/** Number of zones in a subnets map (AZ → subnet), not counting the `*` entry. */
export function azCount(subnets: unknown): number {
  if (subnets === null || subnets === undefined) return 0;
  return Object.keys(expectMap(subnets, 'azCount subnets')).filter((k) => k !== '*').length;
}

function expectPools(value: unknown, helper: string): TemplatePool[] {
  if (!Array.isArray(value))
    throw helperError(`${helper} needs a list of node pools (e.g. Cluster.NodePools), got ${describe(value)}`);
  value.forEach((pool, i) => {
    if (!isPlainMap(pool) || typeof pool.Profile !== 'string' || !isPlainMap(pool.ConfigItems)) {
      throw helperError(
        `${helper}: item ${i} is not a node pool (needs Profile and ConfigItems), got ${describe(pool)}`,
      );
    }
  });
  return value as TemplatePool[];
}

function dedicatedLabel(pool: TemplatePool): string | undefined {
  let dedicated: string | undefined;
  for (const label of (pool.ConfigItems.labels ?? '').split(',')) {
    const eq = label.indexOf('=');
    if (eq >= 0 && label.slice(0, eq) === 'dedicated') dedicated = label.slice(eq + 1);
  }
  return dedicated;
}

/**
 * Non-master pools grouped by their `dedicated` label; "" is the default group, made of the pools with neither
 * a dedicated label nor a `taints` item (tainted pools without the label belong to no group).
 */
function groupByPurpose(pools: readonly TemplatePool[]): Map<string, TemplatePool[]> {
  const groups = new Map<string, TemplatePool[]>();
  const add = (group: string, pool: TemplatePool): void => {
    groups.set(group, [...(groups.get(group) ?? []), pool]);
  };
  for (const pool of pools) {
    if (pool.Profile.startsWith('master')) continue;
    const group = dedicatedLabel(pool);
    if (group) add(group, pool);
    else if (!Object.prototype.hasOwnProperty.call(pool.ConfigItems, 'taints')) add('', pool);
  }
  return groups;
}

function sortedRecord<T>(entries: Iterable<[string, T]>): Record<string, T> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Groups safe for even zone spreading → true: every pool of the group has taint `dedicated=<g>:NoSchedule`
 * (non-default groups), no `availability_zones` item, and profile `worker-splitaz` or `worker-karpenter`.
 */
export function zoneDistributedNodePoolGroups(nodePools: unknown): Record<string, boolean> {
  const result: [string, boolean][] = [];
  for (const [group, pools] of groupByPurpose(expectPools(nodePools, 'zoneDistributedNodePoolGroups'))) {
    const distributed = pools.every(
      (pool) =>
        (group === '' || pool.ConfigItems.taints === `dedicated=${group}:NoSchedule`) &&
        !Object.prototype.hasOwnProperty.call(pool.ConfigItems, 'availability_zones') &&
        (pool.Profile === 'worker-splitaz' || pool.Profile === 'worker-karpenter'),
    );
    if (distributed) result.push([group, true]);
  }
  return sortedRecord(result);
}

const LIFECYCLE_PROVIDERS: Readonly<Record<string, string>> = {
  'worker-karpenter': 'karpenter',
  'worker-combined': 'zalando',
  'worker-splitaz': 'zalando',
};

/** Group (`default` for "") → `karpenter` / `zalando` when all its pools share such a profile, else "". */
export function nodeLifeCycleProviderPerNodePoolGroup(nodePools: unknown): Record<string, string> {
  const result: [string, string][] = [];
  for (const [group, pools] of groupByPurpose(expectPools(nodePools, 'nodeLifeCycleProviderPerNodePoolGroup'))) {
    const profile = pools.every((pool) => pool.Profile === pools[0].Profile) ? pools[0].Profile : '';
    result.push([group === '' ? 'default' : group, LIFECYCLE_PROVIDERS[profile] ?? '']);
  }
  return sortedRecord(result);
}
