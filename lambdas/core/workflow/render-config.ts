import {
  decryptConfigItems,
  inheritConfigItems,
  renderConfigDefaults,
  sortedItems,
  withEffectiveConfigItems,
} from '../config/effective-config-items';
import { mergeConfigDefaults } from '../config/config-defaults';
import { renderMainStack } from '../render/render-main-stack';
import { throwIfIssues } from '../render/render-issue';
import type { Cluster, ConfigItems } from '../model/cluster';
import type { Ports } from '../../ports/ports';
import type { RenderConfigOutput } from '../../contracts/cluster-update';
import { ConfigError } from '../../shared/errors';
import { putJson, runArtifactKey, type MainArtifact } from './artifacts';
import { storeConfigFiles } from './config-files';
import { loadRunCluster, renewLease, updateRun, type RunRef } from './run-state';

/**
 * Check out every config source at the versions Prepare pinned, work out the effective config items,
 * render the main stack and validate every deletions file — all before anything is deployed.
 */
export async function renderConfig(ref: RunRef, ports: Ports): Promise<RenderConfigOutput> {
  await renewLease(ports, ref);
  const { cluster, sourceVersions } = await loadRunCluster(ports, ref);
  const snapshots = await Promise.all(
    ports.sources.map((source) => {
      const version = sourceVersions[source.name];
      if (!version)
        throw new ConfigError(
          `config source ${source.name} was not resolved for this run (sources changed since Prepare?)`,
          { location: { clusterId: cluster.id } },
        );
      return source.checkout(version);
    }),
  );
  // Defaults merged into the registry's items; `aws:kms:` values stay encrypted in what is stored (S3),
  // and are decrypted only in memory for the templates.
  const merged = sortedItems(
    mergeConfigDefaults(await renderConfigDefaults(cluster, snapshots, ports.templates), cluster.configItems),
  );
  const configured = await decryptedCluster(cluster, merged, ports);
  const values = await ports.forCluster(configured).values.clusterValues(configured);
  const main = await renderMainStack({ cluster: configured, snapshots, values, engine: ports.templates });
  throwIfIssues(main.errors, `Rendering the config of ${cluster.id}`);
  if (!main.stack) throw new ConfigError('the main stack did not render', { location: { clusterId: cluster.id } });

  const configFilesKey = await storeConfigFiles(
    ports.artifacts,
    runArtifactKey(ref.clusterId, ref.targetVersion, 'config-files'),
    snapshots,
  );
  const artifact: MainArtifact = { configItems: merged, mainStack: main.stack, configFilesKey };
  const artifactKey = await putJson(
    ports.artifacts,
    runArtifactKey(ref.clusterId, ref.targetVersion, 'main'),
    artifact,
  );
  await updateRun(ports, ref, (run) => ({
    ...run,
    phase: 'RenderConfig',
    artifacts: { ...run.artifacts, main: artifactKey, configFiles: configFilesKey },
  }));
  const deletions = main.deletions.preApply.length + main.deletions.postApply.length;
  return {
    artifactKey,
    message: `Rendered main stack ${main.stack.name} (${snapshots.length} config source${snapshots.length === 1 ? '' : 's'}); ${deletions} deletion(s) validated`,
  };
}

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
