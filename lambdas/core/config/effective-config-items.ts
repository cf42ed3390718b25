import { ConfigError, isRetryable } from '../../shared/errors';
import type { ConfigSnapshot } from '../../ports/config-source';
import type { SecretDecrypter } from '../../ports/secrets';
import type { TemplateEngine } from '../../ports/template-engine';
import type { Cluster, ConfigItems } from '../model/cluster';
import { CONFIG_DEFAULTS, templatesInEverySource } from '../render/config-layout';
import { renderContext } from '../render/render-context';
import { mergeConfigDefaults, parseConfigDefaults } from './config-defaults';

export const KMS_PREFIX = 'aws:kms:';

export interface EffectiveConfigItems {
  readonly configItems: ConfigItems;
  /** Per pool, in registry order: its own items plus every cluster item it does not set. */
  readonly nodePools: readonly { readonly name: string; readonly configItems: ConfigItems }[];
}

export interface EffectiveConfigInput {
  readonly cluster: Cluster;
  readonly snapshots: readonly ConfigSnapshot[];
  readonly engine: TemplateEngine;
  readonly decrypter: SecretDecrypter;
}

/**
 * The config items templates see (CLM `applyDefaultsToManifests`, §4.2), in CLM's order:
 * 1. every source's `config-defaults.yaml`, rendered with the cluster WITHOUT config items (no Values,
 *    no NodePool); later sources override earlier ones; registry items always win;
 * 2. `aws:kms:` values (from the registry or the defaults) decrypted through the port;
 * 3. node pools inherit every cluster item they do not set themselves (pool items are not decrypted).
 */
export async function effectiveConfigItems(input: EffectiveConfigInput): Promise<EffectiveConfigItems> {
  const defaults = await renderConfigDefaults(input.cluster, input.snapshots, input.engine);
  const merged = mergeConfigDefaults(defaults, input.cluster.configItems);
  const configItems = sortedItems(await decryptConfigItems(merged, input.decrypter, input.cluster.id));
  return {
    configItems,
    nodePools: input.cluster.nodePools.map((pool) => ({
      name: pool.name,
      configItems: inheritConfigItems(configItems, pool.configItems),
    })),
  };
}

/** The cluster with its effective items (and its pools' inherited items), ready for the templates. */
export function withEffectiveConfigItems(cluster: Cluster, effective: EffectiveConfigItems): Cluster {
  return {
    ...cluster,
    configItems: effective.configItems,
    nodePools: cluster.nodePools.map((pool, index) => ({
      ...pool,
      configItems: effective.nodePools[index].configItems,
    })),
  };
}

/** Each source's rendered defaults, in source order (sources without the file are skipped). */
export async function renderConfigDefaults(
  cluster: Cluster,
  snapshots: readonly ConfigSnapshot[],
  engine: TemplateEngine,
): Promise<ConfigItems[]> {
  return (await renderConfigDefaultFiles(cluster, snapshots, engine)).map((d) => d.items);
}

/** One source's rendered `config-defaults.yaml`: its path, its template's text and its items. */
export interface ConfigDefaultsFile {
  readonly file: string;
  /** The file as written (a template): where a default's line is. */
  readonly source: string;
  readonly items: ConfigItems;
}

/** Each source's rendered defaults with the file they came from, in source order. */
export async function renderConfigDefaultFiles(
  cluster: Cluster,
  snapshots: readonly ConfigSnapshot[],
  engine: TemplateEngine,
): Promise<ConfigDefaultsFile[]> {
  const context = renderContext({ ...cluster, configItems: {} });
  const results: ConfigDefaultsFile[] = [];
  for (const template of templatesInEverySource(snapshots, CONFIG_DEFAULTS)) {
    const text = await engine.render({ template, context });
    results.push({ file: template.path, source: template.content, items: parseConfigDefaults(text, template.path) });
  }
  return results;
}

/** Decrypt every `aws:kms:<base64>` value; other values pass unchanged. A failure names the item. */
export async function decryptConfigItems(
  items: ConfigItems,
  decrypter: SecretDecrypter,
  clusterId?: string,
): Promise<ConfigItems> {
  const entries = await Promise.all(
    Object.entries(items).map(async ([key, value]): Promise<[string, string]> => {
      if (!value.startsWith(KMS_PREFIX)) return [key, value];
      try {
        return [key, await decrypter.decrypt(value.slice(KMS_PREFIX.length))];
      } catch (error) {
        if (isRetryable(error)) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        throw new ConfigError(`cannot decrypt config item "${key}": ${reason}`, {
          cause: error,
          location: { clusterId, field: `config_items.${key}` },
        });
      }
    }),
  );
  return Object.fromEntries(entries);
}

/** Pool items win; every cluster item the pool does not set is copied in (CLM §10.4). */
export function inheritConfigItems(clusterItems: ConfigItems, poolItems: ConfigItems): ConfigItems {
  return sortedItems({ ...clusterItems, ...poolItems });
}

/** Keys in byte order, so every output and hash of the items is stable. */
export function sortedItems(items: ConfigItems): ConfigItems {
  return Object.fromEntries(Object.entries(items).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
