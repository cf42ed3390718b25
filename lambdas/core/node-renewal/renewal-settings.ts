import type { ConfigItems, NodePool } from '../model/cluster';
import { isKarpenterPool } from '../model/cluster';
import { booleanItem } from '../config/boolean-item';
import { ConfigError } from '../../shared/errors';
import { parseAgeDuration } from './age-duration';
import { DEFAULT_REPAIR_CAP, parseRepairCap, type RepairCap } from './repair-cap';

/**
 * How a pool's nodes are renewed besides a config change (README "Node repair, forced rolls and node age"): from
 * the pool's config items, inherited from the cluster's.
 */
export interface RenewalSettings {
  /** `node_repair`: replace nodes NotReady (or unreachable) for `repairAfterMs`. */
  readonly repair: boolean;
  /** `node_repair_after` (default 10m). */
  readonly repairAfterMs: number;
  /** `node_repair_max_unhealthy` of the pool (default 40%). */
  readonly cap: RepairCap;
  /** `node_repair_outside_windows`: a repair may start while the maintenance windows are closed (default false). */
  readonly outsideWindows: boolean;
  /** `node_max_age`: nodes registered longer ago are replaced by the next roll. */
  readonly maxAgeMs?: number;
  /** A Karpenter pool whose Karpenter repairs nodes itself (`NodeRepair=true` in `karpenter_feature_gates`). */
  readonly leftToKarpenter: boolean;
}

export const DEFAULT_REPAIR_AFTER_MS = 10 * 60_000;

/** The config items of this feature, for validation messages and the README. */
export const RENEWAL_ITEMS = [
  'node_repair',
  'node_repair_after',
  'node_repair_max_unhealthy',
  'node_repair_outside_windows',
  'node_max_age',
] as const;

export function renewalSettings(
  pool: Pick<NodePool, 'name' | 'profile'>,
  items: ConfigItems,
  clusterId: string,
): RenewalSettings {
  const field = (key: string) => `node_pools[${pool.name}].config_items.${key}`;
  const repairAfterMs = durationItem(items, 'node_repair_after', clusterId, field) ?? DEFAULT_REPAIR_AFTER_MS;
  const maxAgeMs = durationItem(items, 'node_max_age', clusterId, field);
  const repair = booleanItem(items, 'node_repair', clusterId);
  return {
    repair,
    repairAfterMs,
    cap: capItem(items, clusterId, field('node_repair_max_unhealthy')),
    outsideWindows: booleanItem(items, 'node_repair_outside_windows', clusterId),
    ...(maxAgeMs !== undefined ? { maxAgeMs } : {}),
    leftToKarpenter: repair && isKarpenterPool(pool) && karpenterRepairs(items),
  };
}

/** The cluster-wide cap: the cluster's own `node_repair_max_unhealthy` (default 40%). */
export function clusterRepairCap(items: ConfigItems, clusterId: string): RepairCap {
  return capItem(items, clusterId, 'config_items.node_repair_max_unhealthy');
}

/** Karpenter's own node repair is on: its feature gates (the controller's FEATURE_GATES) say `NodeRepair=true`. */
export function karpenterRepairs(items: ConfigItems): boolean {
  return (items.karpenter_feature_gates ?? '')
    .split(',')
    .some((gate) => gate.replace(/\s+/g, '').toLowerCase() === 'noderepair=true');
}

/** Whether any pool of the cluster (or the cluster) asks for repair or a maximum age: only then are nodes looked at. */
export function renewalConfigured(items: ConfigItems, pools: readonly Pick<NodePool, 'configItems'>[]): boolean {
  const asks = (i: ConfigItems) => i.node_repair?.trim() === 'true' || (i.node_max_age ?? '').trim() !== '';
  return asks(items) || pools.some((p) => asks(p.configItems));
}

function durationItem(
  items: ConfigItems,
  key: string,
  clusterId: string,
  field: (key: string) => string,
): number | undefined {
  const raw = items[key];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = parseAgeDuration(raw);
  if (value === undefined || value <= 0)
    throw new ConfigError(`config item ${key} must be a duration such as 10m, 6h or 30d, got "${raw}"`, {
      location: { clusterId, field: field(key) },
    });
  return value;
}

function capItem(items: ConfigItems, clusterId: string, field: string): RepairCap {
  const raw = items.node_repair_max_unhealthy;
  if (raw === undefined || raw.trim() === '') return DEFAULT_REPAIR_CAP;
  const cap = parseRepairCap(raw);
  if (!cap)
    throw new ConfigError(
      `config item node_repair_max_unhealthy must be a percentage (0%-100%) or a count of nodes, got "${raw}"`,
      { location: { clusterId, field } },
    );
  return cap;
}
