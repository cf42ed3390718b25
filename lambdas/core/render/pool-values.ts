import { gzipSync } from 'node:zlib';
import { ConfigError } from '../../shared/errors';
import type { NodePool } from '../model/cluster';
import { isRecord } from '../config/plain-data';

/** Deploy-time values templates see as `Values.*` (CLM §4.3). */
export type Values = Readonly<Record<string, unknown>>;

/** `Values.ClusterStackOutputs`: outputs of the main stack, `{}` when not known yet. */
export function clusterStackOutputs(values: Values): Record<string, string> {
  const outputs = values.ClusterStackOutputs;
  if (!isRecord(outputs)) return {};
  return Object.fromEntries(Object.entries(outputs).map(([key, value]) => [key, String(value)]));
}

/** CLM: ASG pools get the rendered userdata.yaml gzipped, then base64 encoded. */
export function encodeUserData(rendered: string): string {
  // Level 9 and no file name or mtime in the header: the same text always gives the same bytes, so the
  // launch template only changes (and nodes only roll) when the user data really changes.
  return gzipSync(Buffer.from(rendered, 'utf8'), { level: 9 }).toString('base64');
}

/**
 * The pool config item `availability_zones` (a comma list, inherited from the cluster when the pool
 * does not set it) restricts `Values.availability_zones` and `Values.subnets` for that pool's stack,
 * `subnets["*"]` becoming the comma list of the kept subnets (CLM §4.3). An AZ without a subnet is an
 * error naming the pool.
 */
export function restrictToPoolZones(
  values: Values,
  pool: Pick<NodePool, 'name' | 'configItems'>,
): Record<string, unknown> {
  const wanted = (pool.configItems.availability_zones ?? '')
    .split(',')
    .map((az) => az.trim())
    .filter(Boolean);
  if (!wanted.length) return { ...values };
  const zones = [...new Set(wanted)].sort();
  const subnets = values.subnets;
  if (!isRecord(subnets)) return { ...values, availability_zones: zones };
  const missing = zones.filter((az) => typeof subnets[az] !== 'string');
  if (missing.length) {
    const known = Object.keys(subnets)
      .filter((az) => az !== '*')
      .sort();
    throw new ConfigError(
      `node pool "${pool.name}": availability_zones lists ${missing.join(', ')}, which ha${missing.length > 1 ? 've' : 's'} no subnet (known zones: ${known.join(', ') || 'none'})`,
      {
        location: { field: `node_pools.${pool.name}.config_items.availability_zones` },
      },
    );
  }
  const kept: Record<string, string> = Object.fromEntries(zones.map((az) => [az, subnets[az] as string]));
  return { ...values, availability_zones: zones, subnets: { ...kept, '*': zones.map((az) => kept[az]).join(',') } };
}

/** `Values.supports_t2_unlimited`: every instance type of the pool is a t2. */
export function supportsT2Unlimited(pool: Pick<NodePool, 'instanceTypes'>): boolean {
  return pool.instanceTypes.length > 0 && pool.instanceTypes.every((type) => type.startsWith('t2.'));
}
