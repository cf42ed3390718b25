import { FakeAccountQuotas } from './fake-account-quotas';
import { FakeRehearsals } from './fake-rehearsals';
import { MemoryLaunchBudget } from '../../../lambdas/adapters/progress/sharded-launch-budget';
import { DEFAULT_FLEET_SETTINGS, launchLimitsOf } from '../../../lambdas/core/dispatch/fleet-settings';
import { FakeHealthAlarms } from './fake-health-alarms';
import type { Cluster, ClusterStatus, ConfigItems, LifecycleStatus } from '../../../lambdas/core/model/cluster';
import { newRunRecord, type RunRecord } from '../../../lambdas/core/model/run';
import { putJson, runArtifactKey } from '../../../lambdas/tasks/step/artifacts';
import type { ClusterArtifact, MainArtifact, ResourcesArtifact } from '../../../lambdas/contracts/artifacts';
import { MemoryProgressStore } from '../../../lambdas/adapters/progress/memory-progress-store';
import { MemoryFleetStore } from '../../../lambdas/adapters/fleet/memory-fleet-store';
import { MemoryEventSink } from '../../../lambdas/adapters/events/memory-event-sink';
import { FakeUpdateExecutions } from '../fleet/fake-update-executions';
import type { ClusterPorts, Ports } from '../../../lambdas/ports/ports';
import type { ConfigSnapshot, ConfigSource } from '../../../lambdas/ports/config-source';
import type { Registry } from '../../../lambdas/ports/registry';
import { FakeClock } from './fake-clock';
import { FakeKubeCluster } from './fake-kube-cluster';
import { FakeNodePoolBackend } from './fake-node-pool-backend';
import { FakeStackDeployer } from './fake-stack-deployer';
import { FakeClusterLeftovers } from './fake-cluster-leftovers';
import { FakeEksClusters } from './fake-eks-clusters';
import { FakeNodeFilesStore } from './fake-node-files';
import { MemoryArtifactStore } from './memory-artifact-store';
import { testCluster } from '../test-cluster';
import { NO_FORGE } from '../../../lambdas/adapters/forge/no-forge';

/** A registry in memory; `persistsStatus` false behaves like the YAML file (status writes are dropped). */
export class MemoryRegistry implements Registry {
  readonly description = 'memory://test';
  readonly statusWrites: { clusterId: string; lifecycleStatus?: LifecycleStatus; status: ClusterStatus }[] = [];
  constructor(
    public clusters: Cluster[],
    readonly persistsStatus = true,
  ) {}

  async listClusters(): Promise<Cluster[]> {
    return this.clusters.map((c) => ({ ...c }));
  }

  async updateStatus(
    clusterId: string,
    update: { lifecycleStatus?: LifecycleStatus; status: ClusterStatus },
  ): Promise<void> {
    this.statusWrites.push({ clusterId, ...update });
    if (!this.persistsStatus) return;
    this.clusters = this.clusters.map((c) =>
      c.id === clusterId
        ? {
            ...c,
            status: update.status,
            ...(update.lifecycleStatus ? { lifecycleStatus: update.lifecycleStatus } : {}),
          }
        : c,
    );
  }

  async updateConfigItems(clusterId: string, items: ConfigItems): Promise<void> {
    this.clusters = this.clusters.map((c) =>
      c.id === clusterId ? { ...c, configItems: { ...c.configItems, ...items } } : c,
    );
  }
}

/** A config source whose channel resolves to a fixed version (change `version` to "push"). */
export class FixedConfigSource implements ConfigSource {
  readonly kind = 'dir' as const;
  readonly location = '/test/config';
  constructor(
    readonly name: string,
    public version: string,
    readonly files: Record<string, string> = {},
  ) {}

  async resolveVersion(_channel: string): Promise<string> {
    return this.version;
  }

  async checkout(version: string): Promise<ConfigSnapshot> {
    return { sourceName: this.name, version, files: new Map(Object.entries(this.files)) };
  }
}

export interface FakeEnv {
  readonly clock: FakeClock;
  readonly kube: FakeKubeCluster;
  readonly pools: FakeNodePoolBackend;
  readonly alarms: FakeHealthAlarms;
  readonly stacks: FakeStackDeployer;
  readonly leftovers: FakeClusterLeftovers;
  readonly eks: FakeEksClusters;
  readonly nodeFiles: FakeNodeFilesStore;
  readonly quotas: FakeAccountQuotas;
  readonly artifacts: MemoryArtifactStore;
  readonly progress: MemoryProgressStore;
  readonly registry: MemoryRegistry;
  readonly fleet: MemoryFleetStore;
  readonly executions: FakeUpdateExecutions;
  readonly events: MemoryEventSink;
  readonly launches: MemoryLaunchBudget;
  readonly rehearsals: FakeRehearsals;
  readonly source: FixedConfigSource;
  readonly ports: Ports;
}

const unused = (what: string): never => {
  throw new Error(`${what} is not part of this test`);
};

/** Ports over stateful fakes: one cluster world shared by every `forCluster` call. */
export function fakeEnv(options: { clusters?: Cluster[]; persistsStatus?: boolean; bootMs?: number } = {}): FakeEnv {
  const clock = new FakeClock();
  const kube = new FakeKubeCluster(clock);
  const pools = new FakeNodePoolBackend(clock, kube, options.bootMs);
  const stacks = new FakeStackDeployer();
  const alarms = new FakeHealthAlarms();
  const leftovers = new FakeClusterLeftovers();
  const eks = new FakeEksClusters();
  const nodeFiles = new FakeNodeFilesStore();
  const quotas = new FakeAccountQuotas();
  const artifacts = new MemoryArtifactStore();
  const progress = new MemoryProgressStore();
  const registry = new MemoryRegistry(options.clusters ?? [testCluster()], options.persistsStatus ?? true);
  const source = new FixedConfigSource('main', 'c0ffee');
  const fleet = new MemoryFleetStore();
  const executions = new FakeUpdateExecutions(() => clock.now());
  const events = new MemoryEventSink();
  const launches = new MemoryLaunchBudget(launchLimitsOf(DEFAULT_FLEET_SETTINGS));
  const rehearsals = new FakeRehearsals();
  const clusterPorts: ClusterPorts = {
    stacks,
    pools,
    kube,
    lookups: new Proxy({}, { get: () => () => unused('lookups') }) as ClusterPorts['lookups'],
    values: new Proxy({}, { get: () => () => unused('values') }) as ClusterPorts['values'],
    alarms,
    leftovers,
    eks,
    nodeFiles,
    quotas,
  };
  const ports: Ports = {
    registry,
    sources: [source],
    artifacts,
    progress,
    clock,
    templates: new Proxy({}, { get: () => () => unused('templates') }) as Ports['templates'],
    secrets: { decrypt: async () => unused('secrets') },
    fleet,
    executions,
    events,
    webhooks: {
      verify: async () => unused('webhooks'),
      verifyGitlab: async () => unused('webhooks'),
      verifyBitbucket: async () => unused('webhooks'),
    },
    forge: NO_FORGE,
    launches,
    rehearsals,
    forCluster: () => clusterPorts,
  };
  return {
    clock,
    kube,
    pools,
    alarms,
    stacks,
    leftovers,
    eks,
    nodeFiles,
    quotas,
    artifacts,
    progress,
    registry,
    source,
    fleet,
    executions,
    events,
    launches,
    rehearsals,
    ports,
  };
}

/** What Prepare and RenderConfig leave behind: the run record, the pinned cluster, the main artefact. */
export async function seedRun(
  env: FakeEnv,
  cluster: Cluster,
  init: { targetVersion: string; holder: string; configItems?: ConfigItems; action?: RunRecord['action'] },
): Promise<RunRecord> {
  await env.progress.acquireLease(cluster.id, init.holder, 30 * 60_000, env.clock.now());
  await putJson(env.artifacts, runArtifactKey(cluster.id, init.targetVersion, 'cluster'), {
    cluster,
    configVersion: 'c0ffee',
    sourceVersions: { main: 'c0ffee' },
  } satisfies ClusterArtifact);
  const mainKey = await putJson(env.artifacts, runArtifactKey(cluster.id, init.targetVersion, 'main'), {
    configItems: init.configItems ?? {},
    mainStack: { name: cluster.localId, kind: 'cluster', template: '{}', tags: {} },
    configFilesKey: 'files',
  } satisfies MainArtifact);
  const run = newRunRecord(
    {
      clusterId: cluster.id,
      targetVersion: init.targetVersion,
      action: init.action ?? 'provision',
      holder: init.holder,
      previousVersion: '',
    },
    env.clock.now(),
  );
  return env.progress.putRun({ ...run, artifacts: { main: mainKey } });
}

/** seedRun, plus the run's resources artefact (empty but for `resources`), as RenderClusterResources leaves it. */
export async function seedRunWithResources(
  env: FakeEnv,
  cluster: Cluster,
  init: { targetVersion: string; holder: string },
  resources: Partial<ResourcesArtifact>,
): Promise<RunRecord> {
  const run = await seedRun(env, cluster, init);
  const artifact: ResourcesArtifact = {
    poolStacks: [],
    cfManifestStacks: [],
    manifests: [],
    deletions: { preApply: [], postApply: [] },
    cfDeletions: { preApply: [], postApply: [] },
    filesKeys: [],
    ...resources,
  };
  const key = await putJson(env.artifacts, runArtifactKey(cluster.id, init.targetVersion, 'resources'), artifact);
  return env.progress.putRun({ ...run, artifacts: { ...run.artifacts, resources: key } });
}
