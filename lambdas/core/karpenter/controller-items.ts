import type { ConfigItems } from '../model/cluster';
import { parseGoDuration } from '../rollout/go-duration';
import { ConfigError } from '../../shared/errors';
import { DEFAULT_KARPENTER_CONTROLLER } from './karpenter-objects';

/** CLM waits 15 min for the API server; the Karpenter controller gets as long (item `karpenter_controller_timeout`). */
export const DEFAULT_CONTROLLER_TIMEOUT_MS = 15 * 60_000;

/** Config item `karpenter_controller`: `namespace/name` of the controller Deployment. */
export function controllerRef(items: ConfigItems, clusterId: string): { namespace: string; name: string } {
  const raw = (items.karpenter_controller ?? '').trim() || DEFAULT_KARPENTER_CONTROLLER;
  const match = /^([a-z0-9-]+)\/([a-z0-9.-]+)$/.exec(raw);
  if (!match)
    throw new ConfigError(`config item karpenter_controller must be namespace/name of a Deployment, got "${raw}"`, {
      location: { clusterId, field: 'config_items.karpenter_controller' },
    });
  return { namespace: match[1]!, name: match[2]! };
}

/** Config item `karpenter_controller_timeout`: how long ApplyKarpenterPools waits for the controller (Go duration). */
export function controllerTimeoutMs(items: ConfigItems, clusterId: string): number {
  const raw = items.karpenter_controller_timeout;
  if (raw === undefined || raw === '') return DEFAULT_CONTROLLER_TIMEOUT_MS;
  const ms = parseGoDuration(raw);
  if (ms === undefined)
    throw new ConfigError(`config item karpenter_controller_timeout must be a Go duration such as 15m, got "${raw}"`, {
      location: { clusterId, field: 'config_items.karpenter_controller_timeout' },
    });
  return ms;
}
