import {
  decryptConfigItems,
  inheritConfigItems,
  withEffectiveConfigItems,
} from '../../core/config/effective-config-items';
import type { Cluster, ConfigItems } from '../../core/model/cluster';
import type { Ports } from '../../ports/ports';

/** The cluster as templates see it: merged items with `aws:kms:` values decrypted, pools inheriting them (CLM §4.2). */
export async function decryptedCluster(
  cluster: Cluster,
  mergedItems: ConfigItems,
  ports: Pick<Ports, 'secrets'>,
): Promise<Cluster> {
  const configItems = await decryptConfigItems(mergedItems, ports.secrets, cluster.id);
  return withEffectiveConfigItems(cluster, {
    configItems,
    nodePools: cluster.nodePools.map((pool) => ({
      name: pool.name,
      configItems: inheritConfigItems(configItems, pool.configItems),
    })),
  });
}
