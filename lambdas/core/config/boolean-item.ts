import type { ConfigItems } from '../model/cluster';
import { ValidationError } from '../../shared/errors';

/** A `"true"`/`"false"` config item (absent: `fallback`); anything else is refused, naming the cluster and the item. */
export function booleanItem(items: ConfigItems, name: string, clusterId: string, fallback = false): boolean {
  const raw = items[name]?.trim();
  if (raw === undefined) return fallback;
  if (raw !== 'true' && raw !== 'false')
    throw new ValidationError(`must be "true" or "false", not ${JSON.stringify(raw)}`, {
      location: { clusterId, field: `config_items.${name}` },
    });
  return raw === 'true';
}
