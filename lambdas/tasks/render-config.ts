import { approvalSetting } from '../core/approval/approval';
import { checkedConfigItems } from '../core/config/config-item-checks';
import { throwIfIssues } from '../core/render/render-issue';
import { withDiscoveredNetwork } from '../core/render/discovered-network';
import { renderMainStack, type MainStackRender } from '../core/render/render-main-stack';
import { renderClusterResources } from '../core/render/render-cluster-resources';
import type { RenderedStack } from '../core/render/render-stack';
import type { Cluster } from '../core/model/cluster';
import { uniqueIssues } from '../core/render/render-cluster';
import { renderBeforeDeploy } from '../core/render/validate-before-deploy';
import type { MainArtifact } from '../contracts/artifacts';
import { managesEtcdStack } from '../core/render/etcd-settings';
import { renderEtcdStack } from '../core/render/render-etcd-stack';
import { RenderConfigOutput } from '../contracts/cluster-update';
import { ConfigError } from '../shared/errors';
import { defineTask, type PortsFor } from './define-task';
import { putJson, runArtifactKey } from './step/artifacts';
import { storeConfigFiles } from './render/config-files';
import { checkoutClusterConfig } from './cluster-stacks/cluster-stack';
import { decryptedCluster } from './render/decrypted-cluster';
import { liveIssues } from './render/live-checks';
import { openStep } from './step/open-step';
import { windowBeforeFirstWrite } from './render/window-gate';
import { repairRunsAnytime } from '../core/node-renewal/repair-anytime';
import { nodeCheckItems } from '../core/node-renewal/node-check-items';
import { recordNodeCheckItems } from './step/cluster-status';
import { clusterUpdatePayload, runRef } from './step/payloads';
import { updateRun, type RunRef } from './step/run-record';
import { held } from '../core/events/update-events';
import { announce } from './events/announce';

const PORTS = {
  sources: 'read',
  templates: 'read',
  secrets: 'read',
  values: 'read',
  // ValidateTemplate; outside a maintenance window with maintenance_windows_manifests_anytime, change sets (created,
  // described, deleted: never executed, but a write to IAM). The API server's discovery for the deletions' kinds.
  stacks: 'write',
  kube: 'read',
  progress: 'write',
  artifacts: 'write',
  clock: 'read',
  events: 'write',
} as const;

/**
 * Check out every config source at the versions Prepare pinned, work out the effective config items,
 * render the main stack and validate every deletions file, node pool, cf-manifest and manifest — all before
 * anything is deployed — and say whether the update must wait for a maintenance window before its first write.
 */
export async function renderConfig(
  ref: RunRef,
  ports: PortsFor<typeof PORTS>,
  windowWaitsBefore = 0,
): Promise<RenderConfigOutput> {
  const { run, cluster, pinned, now } = await openStep(ports, ref);
  // A pinned cluster stack's layers stand in for its source's `cluster/…` tree (stored so later steps use them).
  const { snapshots } = await checkoutClusterConfig(cluster, ports.sources, pinned.sourceVersions, ports.artifacts);
  // Defaults merged into the registry's items; `aws:kms:` values stay encrypted in what is stored (S3),
  // and are decrypted only in memory for the templates. Every item the engine reads later is checked now, at the
  // cluster's and at each pool's level: a bad one fails here, before anything is written.
  const { merged, issues } = await checkedConfigItems(cluster, snapshots, ports.templates);
  throwIfIssues(issues, `Checking the config items of ${cluster.id}`);
  const configured = await decryptedCluster(cluster, merged, ports);
  const cp = ports.forCluster(configured);
  const values = await cp.values.clusterValues(configured);
  const prepared = withDiscoveredNetwork(configured, values);
  // CLM §6.2 step 10: the etcd stack before the main stack, which sees the values the etcd step added.
  const etcd = managesEtcdStack(prepared)
    ? await renderEtcdStack({ cluster: prepared, snapshots, values, engine: ports.templates })
    : undefined;
  const input = { cluster: prepared, snapshots, values: etcd?.values ?? values, engine: ports.templates };
  const main = await renderAndValidate(cluster, input, cp, etcd?.stack);
  const approval = approvalSetting(merged, cluster.id);
  // A renewal run that may repair outside the windows does not wait here; its roll gate holds what must wait.
  const wait = repairRunsAnytime(run.nodeRoll, cluster, merged)
    ? undefined
    : await windowBeforeFirstWrite(
        cluster.id,
        merged,
        now,
        async () => [...(etcd ? [etcd.stack] : []), ...(await stacksAsNow(input, main, cp))],
        cp.stacks,
      );

  const key = (name: string) => runArtifactKey(ref.clusterId, ref.targetVersion, name);
  const configFilesKey = await storeConfigFiles(ports.artifacts, key('config-files'), snapshots);
  const artifact: MainArtifact = {
    configItems: merged,
    mainStack: main.stack,
    configFilesKey,
    values,
    ...(etcd ? { etcd: { stack: etcd.stack, files: etcd.files } } : {}),
  };
  const artifactKey = await putJson(ports.artifacts, key('main'), artifact);
  // The scheduled pass's node checks render nothing: they read the node-check items config-defaults.yaml set here.
  await recordNodeCheckItems(ports, cluster, nodeCheckItems(ref.targetVersion, merged));
  await updateRun(ports, ref, (run) => ({
    ...run,
    phase: wait ? `RenderConfig: ${wait.message}` : 'RenderConfig',
    artifacts: { ...run.artifacts, main: artifactKey, configFiles: configFilesKey },
  }));
  if (wait)
    await announce(ports, ref, [
      held({ ...ref, now }, { reason: 'window', message: wait.message, resumeAt: wait.resumeAt }),
    ]);
  const deletions = main.deletions.preApply.length + main.deletions.postApply.length;
  const sources = `${snapshots.length} config source${snapshots.length === 1 ? '' : 's'}`;
  const then = wait ? `; ${wait.message}` : approval.required ? '; the update waits for the approval of its plan' : '';
  return {
    artifactKey,
    message: `Rendered ${etcd ? `etcd stack ${etcd.stack.name} and ` : ''}main stack ${main.stack.name} (${sources}); ${deletions} deletion(s) validated${then}`,
    approvalRequired: approval.required,
    ...(wait ? { resumeAt: wait.resumeAt } : {}),
    windowWaits: windowWaitsBefore + (wait ? 1 : 0),
  };
}

type RenderInput = Parameters<typeof renderBeforeDeploy>[0];
type RenderPorts = ReturnType<PortsFor<typeof PORTS>['forCluster']>;

/**
 * Render the main stack, and everything after it once more with its outputs unknown (a broken pool, cf-manifest or
 * manifest fails here, before the main stack is touched); then ask CloudFormation and the API server about it.
 */
async function renderAndValidate(
  cluster: Cluster,
  input: RenderInput,
  cp: RenderPorts,
  etcdStack?: RenderedStack,
): Promise<MainStackRender & { readonly stack: RenderedStack }> {
  const main = await renderMainStack(input);
  const later = await renderBeforeDeploy(input);
  throwIfIssues(uniqueIssues([...main.errors, ...later.issues]), `Rendering the config of ${cluster.id}`);
  if (!main.stack) throw new ConfigError('the main stack did not render', { location: { clusterId: cluster.id } });
  const { resources } = later;
  const stacks = [
    ...(etcdStack ? [etcdStack] : []),
    main.stack,
    ...resources.nodePools.map((p) => p.stack),
    ...resources.cfManifests,
  ];
  const live = await liveIssues(
    cluster,
    { stacks, deletions: main.deletions, manifests: resources.manifests },
    cp,
    cp.kube,
  );
  throwIfIssues(live, `Validating the config of ${cluster.id}`);
  return main as MainStackRender & { readonly stack: RenderedStack };
}

/** Every stack as it would deploy now: the later ones rendered with the main stack's current outputs. */
async function stacksAsNow(
  input: RenderInput,
  main: { readonly stack: RenderedStack },
  cp: RenderPorts,
): Promise<readonly RenderedStack[]> {
  const outputs = (await cp.stacks.describe(main.stack.name))?.outputs ?? {};
  const resources = await renderClusterResources({
    ...input,
    values: { ...input.values, ClusterStackOutputs: outputs },
  });
  return [main.stack, ...resources.nodePools.map((p) => p.stack), ...resources.cfManifests];
}

export const task = defineTask({
  name: 'RenderConfig',
  description: 'Renders the main stack and validates deletions',
  input: clusterUpdatePayload(),
  output: RenderConfigOutput,
  ports: PORTS,
  lambda: { memoryMb: 1024 },
  step: (payload, ports) => renderConfig(runRef(payload), ports, payload.state.render?.windowWaits ?? 0),
});
