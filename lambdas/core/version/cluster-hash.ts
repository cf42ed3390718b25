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
  // Text runs are joined and hashed in one update each (a fleet hashes 10,000 clusters per pass); only the
  // binary integers split them, so the bytes hashed are exactly the concatenation described above.
  const hash = createHash('sha1');
  let text = '';
  const flush = (binary: Buffer): void => {
    hash.update(text, 'utf8');
    hash.update(binary);
    text = '';
  };
  const int32 = (value: number): void => {
    const buffer = Buffer.allocUnsafe(4);
    buffer.writeInt32LE(value);
    flush(buffer);
  };
  const int64 = (value: number): void => {
    const buffer = Buffer.allocUnsafe(8);
    buffer.writeBigInt64LE(BigInt(value));
    flush(buffer);
  };
  const items = (configItems: ConfigItems): void => {
    for (const key of sortedKeys(configItems)) text += key + configItems[key];
  };

  text += cluster.id + cluster.infrastructureAccount + cluster.localId + cluster.apiServerUrl;
  text += cluster.channel + cluster.environment;
  int32(cluster.criticalityLevel);
  text += cluster.lifecycleStatus + cluster.provider + cluster.region;
  items(cluster.configItems);
  for (const pool of cluster.nodePools) {
    text += pool.name + pool.profile + pool.instanceTypes.join('') + pool.discountStrategy;
    int64(pool.minSize);
    int64(pool.maxSize);
    items(pool.configItems);
  }
  hash.update(text, 'utf8');
  return hash.digest('base64url');
}

/** Keys in Go's order; JS's default sort gives the same order unless a key holds a surrogate pair. */
function sortedKeys(configItems: ConfigItems): string[] {
  const keys = Object.keys(configItems);
  return keys.some((key) => SURROGATE.test(key)) ? keys.sort(compareCodePoints) : keys.sort();
}

const SURROGATE = /[\uD800-\uDFFF]/;

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
