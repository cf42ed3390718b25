import { renderClusterResources as renderResources } from '../render/render-cluster-resources';
import { throwIfIssues } from '../render/render-issue';
import type { Ports } from '../../ports/ports';
import type { RenderResourcesOutput, UpdateOptions } from '../../contracts/cluster-update';
import { getJson, putJson, runArtifactKey, type MainArtifact, type ResourcesArtifact } from './artifacts';
import { loadConfigFiles } from './config-files';
import { decryptedCluster } from './render-config';
import { loadRun, loadRunCluster, renewLease, updateRun, type RunRef } from './run-state';

/**
 * With the main stack's outputs known: render node pools, cf-manifests, manifests and deletions, store
 * the files bundles, and decide which pools roll (none under --apply-only or while the cluster is new).
 */
export async function renderClusterResources(
  ref: RunRef,
  options: UpdateOptions,
  ports: Ports,
): Promise<RenderResourcesOutput> {
  await renewLease(ports, ref);
  const run = await loadRun(ports, ref);
  const { cluster } = await loadRunCluster(ports, ref);
  const main = await getJson<MainArtifact>(ports.artifacts, run.artifacts.main ?? '');
  const snapshots = await loadConfigFiles(ports.artifacts, main.configFilesKey);
  const configured = await decryptedCluster(cluster, main.configItems, ports);
  const values = {
    ...(await ports.forCluster(configured).values.clusterValues(configured)),
    ClusterStackOutputs: run.stackOutputs,
  };
  const rendered = await renderResources({ cluster: configured, snapshots, values, engine: ports.templates });
  throwIfIssues(rendered.errors, `Rendering the resources of ${cluster.id}`);

  const filesKeys: string[] = [];
  for (const pool of rendered.nodePools) {
    const key = pool.files.s3Path.replace(/^s3:\/\/[^/]+\//, '');
    await ports.artifacts.put(key, JSON.stringify({ files: pool.files.files }));
    filesKeys.push(key);
  }
  const artifact: ResourcesArtifact = {
    poolStacks: rendered.nodePools.map((p) => ({ ...p.stack, master: p.master })),
    cfManifestStacks: rendered.cfManifests,
    manifests: rendered.manifests,
    deletions: rendered.deletions,
    cfDeletions: rendered.cfDeletions,
    filesKeys,
  };
  const artifactKey = await putJson(
    ports.artifacts,
    runArtifactKey(ref.clusterId, ref.targetVersion, 'resources'),
    artifact,
  );
  await updateRun(ports, ref, (r) => ({
    ...r,
    phase: 'RenderClusterResources',
    artifacts: { ...r.artifacts, resources: artifactKey },
  }));

  const rolls = !options.applyOnly && cluster.lifecycleStatus !== 'requested' && cluster.lifecycleStatus !== 'creating';
  const pools = (master: boolean) =>
    rolls ? rendered.nodePools.filter((p) => p.master === master).map((p) => p.name) : [];
  const objects = rendered.manifests.reduce((n, f) => n + f.objects.length, 0);
  const why = rolls
    ? ''
    : options.applyOnly
      ? '; nodes are not rolled (--apply-only)'
      : `; nodes are not rolled while the cluster is ${cluster.lifecycleStatus}`;
  return {
    artifactKey,
    rollMasterPools: pools(true),
    rollWorkerPools: pools(false),
    message: `Rendered ${rendered.nodePools.length} node pool(s), ${rendered.cfManifests.length} cf-manifest stack(s), ${objects} object(s) in ${rendered.manifests.length} manifest file(s)${why}`,
  };
}
