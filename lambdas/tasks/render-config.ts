import { approvalSetting } from '../core/approval/approval';
import { mergeConfigDefaults } from '../core/config/config-defaults';
import { renderConfigDefaults, sortedItems } from '../core/config/effective-config-items';
import { throwIfIssues } from '../core/render/render-issue';
import { withDiscoveredNetwork } from '../core/render/discovered-network';
import { renderMainStack } from '../core/render/render-main-stack';
import { uniqueIssues } from '../core/render/render-cluster';
import { renderBeforeDeploy } from '../core/render/validate-before-deploy';
import type { MainArtifact } from '../contracts/artifacts';
import { RenderConfigOutput } from '../contracts/cluster-update';
import { ConfigError } from '../shared/errors';
import { defineTask, type PortsFor } from './define-task';
import { putJson, runArtifactKey } from './kit/artifacts';
import { storeConfigFiles } from './kit/config-files';
import { checkoutClusterConfig } from './kit/cluster-stack';
import { decryptedCluster } from './kit/decrypted-cluster';
import { liveIssues } from './kit/live-checks';
import { openStep } from './kit/open-step';
import { clusterUpdatePayload, runRef } from './kit/payloads';
import { updateRun, type RunRef } from './kit/run-record';

const PORTS = {
  sources: 'read',
  templates: 'read',
  secrets: 'read',
  values: 'read',
  // ValidateTemplate, and the API server's discovery for the deletions' kinds: reads only.
  stacks: 'read',
  kube: 'read',
  progress: 'write',
  artifacts: 'write',
  clock: 'read',
} as const;

/**
 * Check out every config source at the versions Prepare pinned, work out the effective config items,
 * render the main stack and validate every deletions file, node pool, cf-manifest and manifest — all before
 * anything is deployed.
 */
export async function renderConfig(ref: RunRef, ports: PortsFor<typeof PORTS>): Promise<RenderConfigOutput> {
  const { cluster, pinned } = await openStep(ports, ref);
  // A pinned cluster stack's layers stand in for its source's `cluster/…` tree (stored so later steps use them).
  const { snapshots } = await checkoutClusterConfig(cluster, ports.sources, pinned.sourceVersions);
  // Defaults merged into the registry's items; `aws:kms:` values stay encrypted in what is stored (S3),
  // and are decrypted only in memory for the templates.
  const merged = sortedItems(
    mergeConfigDefaults(await renderConfigDefaults(cluster, snapshots, ports.templates), cluster.configItems),
  );
  const configured = await decryptedCluster(cluster, merged, ports);
  const values = await ports.forCluster(configured).values.clusterValues(configured);
  const rendered = withDiscoveredNetwork(configured, values);
  const main = await renderMainStack({ cluster: rendered, snapshots, values, engine: ports.templates });
  // Pools, cf-manifests and manifests too: a broken one fails here, before the main stack is touched.
  const later = await renderBeforeDeploy({ cluster: rendered, snapshots, values, engine: ports.templates });
  throwIfIssues(uniqueIssues([...main.errors, ...later.issues]), `Rendering the config of ${cluster.id}`);
  // Then what CloudFormation and the API server say of it: still before anything is written.
  const { resources } = later;
  const stacks = [main.stack!, ...resources.nodePools.map((p) => p.stack), ...resources.cfManifests].filter(Boolean);
  const live = await liveIssues(
    cluster,
    { stacks, deletions: main.deletions, manifests: resources.manifests },
    ports.forCluster(configured),
  );
  throwIfIssues(live, `Validating the config of ${cluster.id}`);
  const approval = approvalSetting(merged, cluster.id);
  if (!main.stack) throw new ConfigError('the main stack did not render', { location: { clusterId: cluster.id } });

  const key = (name: string) => runArtifactKey(ref.clusterId, ref.targetVersion, name);
  const configFilesKey = await storeConfigFiles(ports.artifacts, key('config-files'), snapshots);
  const artifact: MainArtifact = { configItems: merged, mainStack: main.stack, configFilesKey };
  const artifactKey = await putJson(ports.artifacts, key('main'), artifact);
  await updateRun(ports, ref, (run) => ({
    ...run,
    phase: 'RenderConfig',
    artifacts: { ...run.artifacts, main: artifactKey, configFiles: configFilesKey },
  }));
  const deletions = main.deletions.preApply.length + main.deletions.postApply.length;
  const sources = `${snapshots.length} config source${snapshots.length === 1 ? '' : 's'}`;
  return {
    artifactKey,
    message: `Rendered main stack ${main.stack.name} (${sources}); ${deletions} deletion(s) validated${approval.required ? '; the update waits for the approval of its plan' : ''}`,
    approvalRequired: approval.required,
  };
}

export const task = defineTask({
  name: 'RenderConfig',
  description: 'Renders the main stack and validates deletions',
  input: clusterUpdatePayload(),
  output: RenderConfigOutput,
  ports: PORTS,
  lambda: { memoryMb: 1024 },
  step: (payload, ports) => renderConfig(runRef(payload), ports),
});
