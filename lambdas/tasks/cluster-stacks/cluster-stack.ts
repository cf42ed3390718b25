import { kubernetesMinor } from '../../core/cluster-stacks/stack-metadata';
import { checkKubernetesUpgrade, type MinorVersion } from '../../core/cluster-stacks/kubernetes-upgrade';
import {
  layerPlan,
  skipReason,
  type LayerPlan,
  type StackState,
  type StackStep,
} from '../../core/cluster-stacks/layer-changes';
import { stackOfVersion, withStackTree, type ResolvedStack } from '../../core/cluster-stacks/resolve-stack';
import { parseStackRef } from '../../core/cluster-stacks/stack-ref';
import { stackState } from '../../core/cluster-stacks/stack-state';
import type { Cluster } from '../../core/model/cluster';
import { ClusterArtifact } from '../../contracts/artifacts';
import type { StepOutput } from '../../contracts/cluster-update';
import type { ArtifactStore } from '../../ports/artifact-store';
import type { ConfigSnapshot, ConfigSource } from '../../ports/config-source';
import type { ClusterPorts, Ports } from '../../ports/ports';
import { ConfigError } from '../../shared/errors';
import { runArtifactKey } from '../step/artifacts';
import { loadClusterStack, releasesIn } from './stack-releases';
import { describeLiveKubernetes, liveVersions, readLiveKubernetes, type LiveKubernetes } from './live-kubernetes';

export interface ClusterConfig {
  /** The snapshots to render: a pinned stack's layers stand in for its source's `cluster/…` tree. */
  readonly snapshots: ConfigSnapshot[];
  readonly stack?: ResolvedStack;
}

/** Check out every source at the given versions and resolve the cluster's stack, if it pins one. */
export async function checkoutClusterConfig(
  cluster: Cluster,
  sources: readonly ConfigSource[],
  versions: Readonly<Record<string, string>>,
  /** The artefact store, holding released stacks at `stack-releases/…` (a pin `vN@sha256:…`). */
  artifacts: ArtifactStore,
): Promise<ClusterConfig> {
  const raw = await Promise.all(
    sources.map((source) => {
      const version = versions[source.name];
      if (!version)
        throw new ConfigError(
          `config source ${source.name} was not resolved for this run (sources changed since Prepare?)`,
          {
            location: { clusterId: cluster.id },
          },
        );
      return source.checkout(version);
    }),
  );
  const stack = await loadClusterStack(cluster, raw, releasesIn(artifacts));
  return { snapshots: withStackTree(raw, stack), ...(stack ? { stack } : {}) };
}

export interface StackDecision {
  readonly stack: StackState;
  readonly layerPlan: LayerPlan;
  /** `Kubernetes upgrade 1.30 → 1.31: …` when the minor changes. */
  readonly upgrade?: string;
  /** The versions the upgrade rules were checked against: read live, or why the recorded one was used. */
  readonly kubernetes: string;
}

/**
 * For a cluster pinning a stack: the layers that change from the stack it runs (recorded by the run of its
 * current version) to the target, and the Kubernetes upgrade rules — checked here, before anything is written.
 */
export async function decideStackLayers(
  ports: Pick<Ports, 'artifacts' | 'progress'> & { forCluster(cluster: Cluster): Pick<ClusterPorts, 'kube'> },
  cluster: Cluster,
  config: ClusterConfig,
  sourceVersions: Readonly<Record<string, string>>,
  applyOnly: boolean,
  live?: LiveKubernetes,
): Promise<StackDecision | undefined> {
  if (!config.stack) return undefined;
  const target = stackState(cluster, config.stack, sourceVersions);
  const previous = await previousStack(ports, cluster);
  const recorded = runningMinor(cluster, previous);
  // The API server's and every node's version as the cluster reports them now; a cluster that cannot be reached
  // (being created) is checked against the version its last run recorded.
  const read = live ?? (await liveKubernetesOf(ports, cluster));
  const now = liveVersions(read);
  const upgrade = checkKubernetesUpgrade(
    {
      ...(now ? { from: now.from, nodes: now.nodes } : recorded),
      to: kubernetesMinor(target.kubernetes),
      rollsNodes: !applyOnly,
    },
    { clusterId: cluster.id, field: 'config_items.cluster_stack' },
  );
  const current = cluster.status.currentVersion;
  const nodesBehind = current ? (await ports.progress.getRun(cluster.id, current))?.applyOnly === true : false;
  return {
    stack: target,
    layerPlan: layerPlan(previous, target, { nodesBehind }),
    ...(upgrade ? { upgrade } : {}),
    kubernetes: describeLiveKubernetes(read, recorded.from && `${recorded.from.major}.${recorded.from.minor}`),
  };
}

/** The live versions of a cluster that runs something; a new cluster has no API server to ask. */
export async function liveKubernetesOf(
  ports: { forCluster(cluster: Cluster): Pick<ClusterPorts, 'kube'> },
  cluster: Cluster,
): Promise<LiveKubernetes> {
  if (!cluster.status.currentVersion) return { nodes: [], unreachable: 'a new cluster' };
  return readLiveKubernetes(ports.forCluster(cluster).kube);
}

/**
 * The Kubernetes minor the cluster runs: from the stack its run recorded, else from the stack its version names
 * (`…;stack=aws/default/1-30@v4#…`), so the upgrade rules hold even when the old run's artefacts are gone.
 */
function runningMinor(cluster: Cluster, previous: StackState | undefined): { from?: MinorVersion } {
  if (previous) return { from: kubernetesMinor(previous.kubernetes) };
  const named = stackOfVersion(cluster.status.currentVersion);
  return named ? { from: parseStackRef(named.name).kubernetes } : {};
}

/** The stack the cluster's current version runs, as its run recorded it (undefined when unknown). */
async function previousStack(ports: Pick<Ports, 'artifacts'>, cluster: Cluster): Promise<StackState | undefined> {
  const current = cluster.status.currentVersion;
  if (!current) return undefined;
  const text = await ports.artifacts.get(runArtifactKey(cluster.id, current, 'cluster'));
  if (!text) return undefined;
  const parsed = ClusterArtifact.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data.stack : undefined;
}

/** A step's quick answer when its layers did not change: `DONE`, `skipped: layer … unchanged`. */
export function skippedStep(pinned: ClusterArtifact, step: StackStep): StepOutput | undefined {
  const reason = pinned.layerPlan ? skipReason(pinned.layerPlan, step) : undefined;
  return reason ? { status: 'DONE', waitSeconds: 1, message: reason } : undefined;
}
