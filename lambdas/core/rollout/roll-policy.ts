import type { ConfigItems, NodePool } from '../model/cluster';
import { isSpotPool } from '../model/cluster';
import { ConfigError } from '../../shared/errors';
import { parseGoDuration } from './go-duration';
import { booleanItem } from '../config/boolean-item';

/** How one pool is rolled. Every field comes from (pool-inherited) config items, with CLM's defaults. */
export interface RollPolicy {
  /** New nodes added before old ones go (CLM: fixed 3, capped at max_size). Item `update_max_surge`. */
  readonly maxSurge: number;
  /** Old nodes that may be drained without a replacement ready. Item `update_max_unavailable` (default 0). */
  readonly maxUnavailable: number;
  /** Replace one node first and soak before the rest. Item `update_canary` ("true"/"false", default true; else refused). */
  readonly canary: boolean;
  /** Soak after the canary (item `update_canary_soak`, Go duration, default 0s). */
  readonly canarySoakMs: number;
  readonly drain: DrainSettings;
  /** How long the health gate may find the pool unhealthy before the roll fails (`update_health_timeout`, default 30m). */
  readonly healthTimeoutMs: number;
  /** CloudWatch alarm that must be OK between batches (`update_health_alarm`, in the cluster's account and region). */
  readonly healthAlarm?: string;
  /** How long a drained node waits for its VolumeAttachments to go before it is terminated anyway (default 6m). */
  readonly volumeDetachTimeoutMs: number;
  /** How long pre-drain / pre-terminate hook annotations may hold a node before the roll fails (default 1h). */
  readonly hookTimeoutMs: number;
  /** Taint effect for decommission-pending (CLM `decommission_node_no_schedule_taint`). */
  readonly noScheduleTaint: boolean;
}

/** CLM §7.5 drain settings (config items `drain_*`, Go durations). */
export interface DrainSettings {
  readonly gracePeriodMs: number;
  readonly minPodLifetimeMs: number;
  readonly minHealthySiblingLifetimeMs: number;
  readonly minUnhealthySiblingLifetimeMs: number;
  readonly forceEvictIntervalMs: number;
  readonly pollIntervalMs: number;
}

export const DEFAULT_HEALTH_TIMEOUT_MS = 30 * 60_000;
export const DEFAULT_VOLUME_DETACH_TIMEOUT_MS = 6 * 60_000;
export const DEFAULT_HOOK_TIMEOUT_MS = 60 * 60_000;

export const DEFAULT_DRAIN: DrainSettings = {
  gracePeriodMs: 6 * 3_600_000,
  minPodLifetimeMs: 72 * 3_600_000,
  minHealthySiblingLifetimeMs: 3_600_000,
  minUnhealthySiblingLifetimeMs: 6 * 3_600_000,
  forceEvictIntervalMs: 5 * 60_000,
  pollIntervalMs: 10_000,
};

export function rollPolicy(
  pool: Pick<NodePool, 'name' | 'maxSize' | 'discountStrategy'>,
  items: ConfigItems,
  clusterId: string,
): RollPolicy {
  const int = (key: string, fallback: number): number => {
    const raw = items[key];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0)
      throw new ConfigError(`config item ${key} must be a non-negative integer, got "${raw}"`, {
        location: { clusterId, field: `node_pools[${pool.name}].config_items.${key}` },
      });
    return value;
  };
  const duration = (key: string, fallback: number): number => {
    const raw = items[key];
    if (raw === undefined || raw === '') return fallback;
    const value = parseGoDuration(raw);
    if (value === undefined)
      throw new ConfigError(`config item ${key} must be a Go duration such as 30s, 10m or 6h, got "${raw}"`, {
        location: { clusterId, field: `config_items.${key}` },
      });
    return value;
  };
  const spot = isSpotPool(pool);
  const surge = Math.min(int('update_max_surge', 3), Math.max(pool.maxSize, 0));
  return {
    maxSurge: spot ? 0 : surge,
    maxUnavailable: int('update_max_unavailable', spot || surge === 0 ? 1 : 0),
    canary: booleanItem(items, 'update_canary', clusterId, true),
    canarySoakMs: duration('update_canary_soak', 0),
    noScheduleTaint: booleanItem(items, 'decommission_node_no_schedule_taint', clusterId),
    healthTimeoutMs: duration('update_health_timeout', DEFAULT_HEALTH_TIMEOUT_MS),
    ...(items.update_health_alarm ? { healthAlarm: items.update_health_alarm } : {}),
    volumeDetachTimeoutMs: duration('update_volume_detach_timeout', DEFAULT_VOLUME_DETACH_TIMEOUT_MS),
    hookTimeoutMs: duration('update_hook_timeout', DEFAULT_HOOK_TIMEOUT_MS),
    drain: {
      gracePeriodMs: duration('drain_grace_period', DEFAULT_DRAIN.gracePeriodMs),
      minPodLifetimeMs: duration('drain_min_pod_lifetime', DEFAULT_DRAIN.minPodLifetimeMs),
      minHealthySiblingLifetimeMs: duration(
        'drain_min_healthy_sibling_lifetime',
        DEFAULT_DRAIN.minHealthySiblingLifetimeMs,
      ),
      minUnhealthySiblingLifetimeMs: duration(
        'drain_min_unhealthy_sibling_lifetime',
        DEFAULT_DRAIN.minUnhealthySiblingLifetimeMs,
      ),
      forceEvictIntervalMs: duration('drain_force_evict_interval', DEFAULT_DRAIN.forceEvictIntervalMs),
      pollIntervalMs: duration('drain_poll_interval', DEFAULT_DRAIN.pollIntervalMs),
    },
  };
}
