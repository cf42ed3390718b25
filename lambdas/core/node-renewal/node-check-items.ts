import type { Cluster, ConfigItems } from '../model/cluster';
import { RENEWAL_ITEMS } from './renewal-settings';

/**
 * The config items the node checks read (the scheduled pass, and a run that finds its cluster up to date): node
 * repair, node age, and Karpenter's own repair. Set in a config source's `config-defaults.yaml`, they reach the
 * rolls through the rendered config; the checks, which render nothing, read them from what the last render of the
 * cluster's version recorded (RenderConfig, in the cluster's stored status).
 */
export const NODE_CHECK_ITEMS: readonly string[] = [...RENEWAL_ITEMS, 'karpenter_feature_gates'];

/** What RenderConfig records: the effective (config-defaults under registry) cluster items of one version. */
export interface NodeCheckItems {
  readonly version: string;
  readonly items: ConfigItems;
}

/** The record of a render: the node-check items of the effective config items `merged` of `version`. */
export function nodeCheckItems(version: string, merged: ConfigItems): NodeCheckItems {
  const items: Record<string, string> = {};
  for (const key of NODE_CHECK_ITEMS) if (merged[key] !== undefined) items[key] = merged[key];
  return { version, items };
}

/**
 * The cluster as the node checks see it: the items recorded for the version it runs, with its registry items over
 * them (the registry wins, as in rendering; its pools inherit as always). A record of another version (a render of
 * an update that has not finished) is not used: the registry's items alone count until that version runs.
 */
export function withNodeCheckItems<C extends Pick<Cluster, 'configItems' | 'status'>>(
  cluster: C,
  recorded: NodeCheckItems | undefined,
): C {
  if (!recorded || recorded.version !== cluster.status.currentVersion) return cluster;
  return { ...cluster, configItems: { ...recorded.items, ...cluster.configItems } };
}
