import { createHash } from 'node:crypto';
import type { Cluster, ConfigItems } from '../model/cluster';

/**
 * CLM's cluster hash (`api/cluster.go` `Version`, reference §3.3), byte for byte, so `current_version`
 * strings written by CLM stay valid and a migration does not re-provision every cluster.
 *
 * SHA-1 over the concatenation, with no separators and no length prefixes, of:
 *  1. id, infrastructure_account, local_id, api_server_url, channel, environment — UTF-8 bytes;
 *  2. criticality_level as a 4-byte little-endian two's-complement int32 (Go `binary.Write(…, LittleEndian, int32)`);
 *  3. lifecycle_status, provider, region — UTF-8;
 *  4. every cluster config item, keys sorted by their UTF-8 bytes (Go `sort.Strings`): key, then value;
 *  5. per node pool, in registry order: name, profile, each instance type, discount_strategy, then
 *     min_size and max_size each as an 8-byte little-endian int64, then the pool's config items sorted
 *     as in 4.
 * The digest is encoded as base64url without padding (27 characters).
 *
 * Not hashed: alias, owner, account_name, created_at and status, so changing them never triggers an update.
 * Because fields are concatenated without separators, moving characters between adjacent strings
 * (`channel: ab, environment: c` vs `a`/`bc`) gives the same hash; CLM has the same property.
 */
export function clusterHash(cluster: Cluster): string {
  const hash = createHash('sha1');
  const text = (value: string): void => {
    hash.update(value, 'utf8');
  };
  const int32 = (value: number): void => {
    const buffer = Buffer.allocUnsafe(4);
    buffer.writeInt32LE(value);
    hash.update(buffer);
  };
  const int64 = (value: number): void => {
    const buffer = Buffer.allocUnsafe(8);
    buffer.writeBigInt64LE(BigInt(value));
    hash.update(buffer);
  };
  const items = (configItems: ConfigItems): void => {
    for (const key of Object.keys(configItems).sort(compareCodePoints)) {
      text(key);
      text(configItems[key]);
    }
  };

  text(cluster.id);
  text(cluster.infrastructureAccount);
  text(cluster.localId);
  text(cluster.apiServerUrl);
  text(cluster.channel);
  text(cluster.environment);
  int32(cluster.criticalityLevel);
  text(cluster.lifecycleStatus);
  text(cluster.provider);
  text(cluster.region);
  items(cluster.configItems);
  for (const pool of cluster.nodePools) {
    text(pool.name);
    text(pool.profile);
    pool.instanceTypes.forEach(text);
    text(pool.discountStrategy);
    int64(pool.minSize);
    int64(pool.maxSize);
    items(pool.configItems);
  }
  return hash.digest('base64url');
}

/**
 * Go `sort.Strings` order, i.e. by UTF-8 bytes, which is Unicode code point order. JS's default string
 * order compares UTF-16 units and differs only when a character outside the BMP meets one in U+E000–U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
