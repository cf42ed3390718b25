import type { Cluster } from '../core/model/cluster';
import { renderClusterResources as renderResources } from '../core/render/render-cluster-resources';
import type { ClusterResources } from '../core/render/render-cluster-resources';
import { withDiscoveredNetwork } from '../core/render/discovered-network';
import { controlPlaneItems } from '../core/eks/eks-control-plane';
import { withEtcdInstanceInfo } from '../core/render/render-etcd-stack';
import { throwIfIssues } from '../core/render/render-issue';
import type { ResourcesArtifact } from '../contracts/artifacts';
import { RenderResourcesOutput, type UpdateOptions } from '../contracts/cluster-update';
import { defineTask, type PortsFor } from './define-task';
import { putJson, runArtifactKey } from './step/artifacts';
import { loadConfigFiles } from './render/config-files';
import { skippedStep } from './cluster-stacks/cluster-stack';
import { decryptedCluster } from './render/decrypted-cluster';
import { openStep } from './step/open-step';
import { clusterUpdatePayload, runRef } from './step/payloads';
import { updateRun, type RunRef } from './step/run-record';
import { uploadFilesBundles } from './node-files/upload-bundles';

const PORTS = {
  templates: 'read',
  secrets: 'read',
  values: 'read',
  nodeFiles: 'write',
  progress: 'write',
  artifacts: 'write',
  clock: 'read',
} as const;

/**
 * With the main stack's outputs known: render node pools, cf-manifests, manifests and deletions, upload the pools'
 * files bundles into the cluster's account (encrypted with the main stack's keys) before any pool stack names them,
 * and decide which pools roll (none under --apply-only or while the cluster is new).
 */
export async function renderClusterResources(
  ref: RunRef,
  options: UpdateOptions,
  ports: PortsFor<typeof PORTS>,
): Promise<RenderResourcesOutput> {
  const { run, cluster, pinned, main } = await openStep(ports, ref, { artifacts: ['main'] });
  const snapshots = await loadConfigFiles(ports.artifacts, main.configFilesKey);
  // zalando-eks: what the creation hook read (ReadControlPlane) counts as the cluster's items from now on.
  const items = run.controlPlane ? { ...main.configItems, ...controlPlaneItems(run.controlPlane) } : main.configItems;
  const configured = await decryptedCluster(cluster, items, ports);
  const clusterValues = await ports.forCluster(configured).values.clusterValues(configured);
  // CLM shares one values map: what the etcd step added is seen by everything after it.
  const values = {
    ...(main.etcd
      ? { ...withEtcdInstanceInfo(configured, clusterValues), S3GeneratedFilesPath: main.etcd.files.s3Path }
      : clusterValues),
    ClusterStackOutputs: run.stackOutputs,
  };
  const withNetwork = withDiscoveredNetwork(configured, values);
  const rendered = await renderResources({ cluster: withNetwork, snapshots, values, engine: ports.templates });
  throwIfIssues(rendered.errors, `Rendering the resources of ${cluster.id}`);

  const filesKeys = await uploadFilesBundles(
    ports.forCluster(configured).nodeFiles,
    withNetwork,
    [...rendered.nodePools, ...rendered.karpenterPools].map((pool) => pool.files),
  );
  const artifact: ResourcesArtifact = {
    poolStacks: rendered.nodePools.map((p) => ({ ...p.stack, master: p.master })),
    cfManifestStacks: [...rendered.cfManifests],
    manifests: [...rendered.manifests],
    deletions: rendered.deletions,
    cfDeletions: rendered.cfDeletions,
    filesKeys,
    ...(rendered.karpenterPools.length
      ? { karpenterPools: rendered.karpenterPools.map((p) => ({ name: p.name, provisioners: [...p.provisioners] })) }
      : {}),
  };
  const key = runArtifactKey(ref.clusterId, ref.targetVersion, 'resources');
  const artifactKey = await putJson(ports.artifacts, key, artifact);
  await updateRun(ports, ref, (r) => ({
    ...r,
    phase: 'RenderClusterResources',
    artifacts: { ...r.artifacts, resources: artifactKey },
  }));
  return { artifactKey, ...rollDecision(cluster, options, rendered, skippedStep(pinned, 'rollPools')?.message) };
}

/**
 * Which pools roll, in order: none under --apply-only, nor while the cluster is still being created, nor when
 * a pinned cluster stack's cluster-class and node-image layers did not change.
 */
function rollDecision(
  cluster: Cluster,
  options: UpdateOptions,
  rendered: ClusterResources,
  layersSkip?: string,
): Omit<RenderResourcesOutput, 'artifactKey'> {
  const rolls =
    !layersSkip &&
    !options.applyOnly &&
    cluster.lifecycleStatus !== 'requested' &&
    cluster.lifecycleStatus !== 'creating';
  const pools = (master: boolean) =>
    rolls ? rendered.nodePools.filter((p) => p.master === master).map((p) => p.name) : [];
  const objects = rendered.manifests.reduce((n, f) => n + f.objects.length, 0);
  const why = rolls
    ? ''
    : layersSkip
      ? `; nodes are not rolled (${layersSkip})`
      : options.applyOnly
        ? '; nodes are not rolled (--apply-only)'
        : `; nodes are not rolled while the cluster is ${cluster.lifecycleStatus}`;
  const karpenter = rendered.karpenterPools.map((p) => p.name);
  return {
    rollMasterPools: pools(true),
    rollWorkerPools: pools(false),
    ...(karpenter.length
      ? { karpenterPools: karpenter, karpenterPoolCount: karpenter.length, rollKarpenterPools: rolls ? karpenter : [] }
      : {}),
    message: `Rendered ${rendered.nodePools.length} node pool(s)${karpenter.length ? ` and ${karpenter.length} Karpenter pool(s)` : ''}, ${rendered.cfManifests.length} cf-manifest stack(s), ${objects} object(s) in ${rendered.manifests.length} manifest file(s)${why}`,
  };
}

export const task = defineTask({
  name: 'RenderClusterResources',
  description: 'Renders node pool stacks, cf-manifests and manifests',
  input: clusterUpdatePayload(),
  output: RenderResourcesOutput,
  ports: PORTS,
  lambda: { memoryMb: 1024, timeoutSeconds: 120 },
  step: (payload, ports) => renderClusterResources(runRef(payload), payload.state.options, ports),
});
