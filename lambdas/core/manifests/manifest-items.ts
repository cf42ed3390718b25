import type { ConfigItems } from '../model/cluster';
import { parseGoDuration } from '../rollout/go-duration';
import { ConfigError } from '../../shared/errors';
import type { JobPolicy } from './workload-health';

/** How long the update waits for the applied workloads to become healthy (config item `manifest_health_timeout`). */
export const DEFAULT_MANIFEST_HEALTH_TIMEOUT_MS = 10 * 60_000;

/** Config item `manifest_drift`: what the scheduled pass does about live objects that differ from what we applied. */
export const DRIFT_MODES = ['repair', 'report', 'off'] as const;
export type DriftMode = (typeof DRIFT_MODES)[number];

function fail(item: string, clusterId: string, message: string): never {
  throw new ConfigError(`config item ${item} ${message}`, { location: { clusterId, field: `config_items.${item}` } });
}

/** `manifest_health_timeout`: a Go duration (`10m`, default), `0s` turns the health check off. */
export function manifestHealthTimeoutMs(items: ConfigItems, clusterId: string): number {
  const raw = items.manifest_health_timeout?.trim();
  if (raw === undefined || raw === '') return DEFAULT_MANIFEST_HEALTH_TIMEOUT_MS;
  const ms = parseGoDuration(raw);
  if (ms === undefined || ms < 0)
    fail('manifest_health_timeout', clusterId, `must be a Go duration such as 10m (0s: no health check), got "${raw}"`);
  return ms;
}

/** `manifest_health_jobs`: `wait` (default: a Job applied must complete) or `ignore`. */
export function manifestHealthJobs(items: ConfigItems, clusterId: string): JobPolicy {
  const raw = items.manifest_health_jobs?.trim() || 'wait';
  if (raw !== 'wait' && raw !== 'ignore')
    fail('manifest_health_jobs', clusterId, `must be wait or ignore, got "${raw}"`);
  return raw;
}

/** `manifest_drift`: `repair`, `report` (default) or `off`. */
export function manifestDrift(items: ConfigItems, clusterId: string): DriftMode {
  const raw = items.manifest_drift?.trim() || 'report';
  if (!(DRIFT_MODES as readonly string[]).includes(raw))
    fail('manifest_drift', clusterId, `must be one of ${DRIFT_MODES.join(', ')}, got "${raw}"`);
  return raw as DriftMode;
}
