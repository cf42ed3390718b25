import { describeLayerPlan, STEP_TITLES, type StackStep } from '../../core/cluster-stacks/layer-changes';
import { LAYER_DIRECTORIES } from '../../core/cluster-stacks/stack-layers';
import { mainStackName } from '../../core/cloudformation/stack-names';
import { objectRef } from '../../core/manifests/inventory';
import { clusterRef } from '../../core/model/cluster-ref';
import type { Cluster, ConfigItems } from '../../core/model/cluster';
import { runTargetVersion } from '../../core/model/update-decision';
import { configItemChanges } from '../../core/plan/config-item-changes';
import { fieldDiff } from '../../core/plan/field-diff';
import type { ClusterPlan, ObjectPlan, StackPlan } from '../../core/plan/plan-document';
import { poolRolls } from '../../core/plan/pool-rolls';
import { renderCluster, type ClusterRender } from '../../core/render/render-cluster';
import type { RenderedManifestFile } from '../../core/render/render-manifests';
import { withDiscoveredNetwork } from '../../core/render/discovered-network';
import { rollPolicy } from '../../core/rollout/roll-policy';
import { checkedConfigItems } from '../../core/config/config-item-checks';
import { resolveClusterConfigVersion, type ResolvedConfigVersion } from '../../core/version/resolve-config-version';
import { MainArtifact, type ClusterArtifact } from '../../contracts/artifacts';
import type { KubeCluster, KubeObject, ObjectRef } from '../../ports/kube-cluster';
import type { ClusterPorts, Ports } from '../../ports/ports';
import { runArtifactKey } from '../step/artifacts';
import { ConfigError } from '../../shared/errors';
import { stackPlans } from './stack-plans';
import {
  checkoutClusterConfig,
  decideStackLayers,
  liveKubernetesOf,
  type ClusterConfig,
  type StackDecision,
} from '../cluster-stacks/cluster-stack';
import { describeLiveKubernetes } from '../cluster-stacks/live-kubernetes';
import { withStoredStatus } from '../step/cluster-status';
import { karpenterObjectPlans, karpenterPoolRolls } from './plan-karpenter';
import { deletionPlans } from './plan-deletions';

/** What planning reads; it writes nothing (the Kubernetes apply is a server-side dry run). */
export type PlanPorts = Pick<
  Ports,
  'registry' | 'sources' | 'artifacts' | 'templates' | 'secrets' | 'progress' | 'clock'
> & {
  forCluster(cluster: Cluster): PlanClusterPorts;
};
/** `values` is asked only when the caller gives none (PlanOptions.values). */
type PlanClusterPorts = Pick<ClusterPorts, 'stacks' | 'kube' | 'pools'> & Partial<Pick<ClusterPorts, 'values'>>;

/** The field manager of the dry-run apply, the one real applies use. */
const FIELD_MANAGER = 'cluster-lifecycle-manager';

export interface PlanOptions {
  readonly applyOnly: boolean;
  /** Plan a run's pinned versions instead of what the channels resolve to now. */
  readonly pinned?: Pick<ClusterArtifact, 'configVersion' | 'sourceVersions'>;
  /** The deploy-time values the run rendered with (its MainArtifact's); else the values port is asked. */
  readonly values?: Readonly<Record<string, unknown>>;
}

/**
 * Everything an update of `cluster` would do, done with reads only: the render at the version its channel
 * resolves to, a change set per stack (created, described, deleted), a dry-run apply per manifest object with
 * its field diff, what prune and deletions.yaml would delete, the pools that would roll.
 */
export async function planCluster(registered: Cluster, ports: PlanPorts, options: PlanOptions): Promise<ClusterPlan> {
  const cluster = await withStoredStatus(ports, registered);
  const { configVersion, sourceVersions } =
    options.pinned ?? pinnedNow(await resolveClusterConfigVersion(cluster, ports.sources));
  const targetVersion = runTargetVersion(configVersion, cluster, false);
  const config = await checkoutClusterConfig(cluster, ports.sources, sourceVersions, ports.artifacts);
  const { snapshots } = config;
  const layerProblems: string[] = [];
  const layerNotes: string[] = [];
  const layers = await planLayers(ports, cluster, config, sourceVersions, options, layerProblems, layerNotes);
  const steps = layers?.layerPlan.steps;
  const cp = ports.forCluster(cluster);
  const outputs = (await cp.stacks.describe(mainStackName(cluster)))?.outputs ?? {};
  const render = await renderCluster({
    cluster,
    snapshots,
    // The run's, or asked with the effective config items, as RenderConfig asks.
    values: async (effective) => ({
      ...(options.values ?? (await requiredValues(cp, cluster).clusterValues(effective))),
      ClusterStackOutputs: outputs,
    }),
    engine: ports.templates,
    decrypter: ports.secrets,
    version: targetVersion,
  });
  const base = {
    clusterId: cluster.id,
    ...(cluster.status.currentVersion ? { currentVersion: cluster.status.currentVersion } : {}),
    targetVersion,
    // The discovered vpc_id and subnets are added to both sides, as a render adds them.
    configItems: configItemChanges(
      withDiscoveredNetwork({ ...cluster, configItems: await currentConfigItems(cluster, ports) }, render.values ?? {})
        .configItems,
      render.configItems,
    ),
  };
  // The config items as provision checks them before its first write (RenderConfig): what it would refuse, the plan
  // reports, and plans nothing more.
  const { issues } = await checkedConfigItems(cluster, snapshots, ports.templates);
  if (render.errors.length || issues.length) {
    const problems = [...issues, ...render.errors].map((e) => e.message);
    return { ...base, stacks: [], objects: [], deletions: [], pools: [], problems, notes: [] };
  }
  const stacks = await stackPlans(render.stacks, steps, cp.stacks);
  const problems: string[] = [...layerProblems];
  const notes: string[] = [...layerNotes];
  const manifests = !steps || steps.manifests;
  const kube = manifests ? await reachableKube(cp.kube, stacks, problems, notes) : undefined;
  const objects = manifests ? await manifestObjectPlans(kube, render, problems) : [];
  const inventory = await ports.progress.getInventory(cluster.id);
  const deletions = kube ? await deletionPlans(kube, render, inventory, problems) : [];
  const rolls =
    (!steps || steps.rollPools) &&
    !options.applyOnly &&
    cluster.lifecycleStatus !== 'requested' &&
    cluster.lifecycleStatus !== 'creating';
  const pools = [
    ...poolRolls(await poolsForPlan(cluster, cp, render), stacks, rolls),
    ...(rolls ? await karpenterPoolRolls({ kube, pools: cp.pools }, cluster, render, objects, ports.clock) : []),
  ];
  return { ...base, stacks, objects, deletions, pools, problems, notes, ...layersOf(layers) };
}

function requiredValues(cp: PlanClusterPorts, cluster: Cluster): ClusterPorts['values'] {
  if (!cp.values) throw new ConfigError(`planning ${cluster.id} needs its deploy-time values`);
  return cp.values;
}

/** What the channels resolve to now, in the shape a run pins. */
function pinnedNow(resolved: ResolvedConfigVersion): Pick<ClusterArtifact, 'configVersion' | 'sourceVersions'> {
  return {
    configVersion: resolved.id,
    sourceVersions: Object.fromEntries(resolved.sources.map((s) => [s.name, s.version])),
  };
}

/**
 * The stack's layer decision, checked against the versions the cluster reports live (said in the plan); a broken
 * Kubernetes upgrade rule is a problem of the plan, and the live versions then go to its notes.
 */
async function planLayers(
  ports: PlanPorts,
  cluster: Cluster,
  config: ClusterConfig,
  sourceVersions: Record<string, string>,
  options: { readonly applyOnly: boolean },
  problems: string[],
  notes: string[],
): Promise<StackDecision | undefined> {
  if (!config.stack) return undefined;
  const live = await liveKubernetesOf(ports, cluster);
  try {
    return await decideStackLayers(ports, cluster, config, sourceVersions, options.applyOnly, live);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
    notes.push(describeLiveKubernetes(live, 'of its current stack'));
    return undefined;
  }
}

/** The plan's layer section: which layers change, which steps are skipped, and a Kubernetes upgrade. */
function layersOf(decision: StackDecision | undefined): Pick<ClusterPlan, 'layers'> {
  if (!decision) return {};
  const plan = decision.layerPlan;
  const skipped = (Object.keys(plan.steps) as StackStep[]).filter((s) => !plan.steps[s]).map((s) => STEP_TITLES[s]);
  const summary = [decision.upgrade, describeLayerPlan(plan)].filter(Boolean).join('; ');
  return {
    layers: {
      ...(plan.from ? { from: plan.from } : {}),
      to: plan.to,
      changed: plan.changed.map((l) => LAYER_DIRECTORIES[l]),
      skipped,
      summary,
      kubernetes: decision.kubernetes,
    },
  };
}

/** The effective config items of the version the cluster runs (its stored render), `{}` when unknown. */
async function currentConfigItems(cluster: Cluster, ports: PlanPorts): Promise<ConfigItems> {
  const current = cluster.status.currentVersion;
  if (!current) return {};
  const text = await ports.artifacts.get(runArtifactKey(cluster.id, current, 'main'));
  if (!text) return cluster.configItems;
  const parsed = MainArtifact.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data.configItems : cluster.configItems;
}

/** The manifests' objects and the Karpenter pools' (dry-run applied where the API server answers, else all new). */
async function manifestObjectPlans(kube: KubeCluster | undefined, render: ClusterRender, problems: string[]) {
  const manifests = kube ? await objectPlans(kube, render, problems) : newObjects(render);
  return [...manifests, ...(await karpenterObjectPlans(kube, render, FIELD_MANAGER, problems))];
}

/** A server-side dry-run apply of every object (the API server validates them), diffed against the live one. */
async function objectPlans(kube: KubeCluster, render: ClusterRender, problems: string[]): Promise<ObjectPlan[]> {
  const live = liveObjects(kube);
  const plans: ObjectPlan[] = [];
  for (const file of render.manifests) {
    const path = manifestPath(file);
    let results;
    try {
      results = await kube.apply(file.objects, { fieldManager: FIELD_MANAGER, dryRun: true });
    } catch (error) {
      problems.push(`${path}: the dry-run apply failed: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    for (const [index, object] of file.objects.entries()) {
      const action = results[index]?.action ?? 'configured';
      const current = await live(objectRef(object));
      const fields = current ? fieldDiff(current, object) : [];
      const changed = action === 'created' ? 'create' : fields.length ? 'update' : 'unchanged';
      plans.push({ ref: objectRef(object), file: path, action: changed, fields });
    }
  }
  return plans;
}

/**
 * The API server, when it answers. A cluster whose main stack is still to be created has none yet: its objects
 * are all new (a note, not a problem); an existing cluster whose API server does not answer is a problem.
 */
async function reachableKube(
  kube: KubeCluster,
  stacks: readonly StackPlan[],
  problems: string[],
  notes: string[],
): Promise<KubeCluster | undefined> {
  const ready = await kube.ready().catch(() => false);
  if (ready) return kube;
  if (stacks[0]?.kind === 'cluster' && stacks[0].action === 'create')
    notes.push('the cluster does not exist yet: every manifest object would be created (no dry run possible)');
  else problems.push('the API server is not reachable: manifest objects and deletions were not checked');
  return undefined;
}

function manifestPath(file: RenderedManifestFile): string {
  return `${file.source}/cluster/manifests/${file.component}/${file.file}`;
}

function newObjects(render: ClusterRender): ObjectPlan[] {
  return render.manifests.flatMap((file) =>
    file.objects.map((object) => ({
      ref: objectRef(object),
      file: manifestPath(file),
      action: 'create' as const,
      fields: [],
    })),
  );
}

/** The live object of a ref, listed once per kind and namespace. */
function liveObjects(kube: KubeCluster): (ref: ObjectRef) => Promise<KubeObject | undefined> {
  const lists = new Map<string, Promise<KubeObject[]>>();
  return async (ref) => {
    const key = `${ref.kind}/${ref.namespace ?? ''}`;
    if (!lists.has(key))
      lists.set(
        key,
        kube.list(ref.kind, ref.namespace ? { namespace: ref.namespace } : {}).catch(() => []),
      );
    return (await lists.get(key)!).find((o) => o.metadata.name === ref.name);
  };
}

async function poolsForPlan(cluster: Cluster, cp: PlanClusterPorts, render: ClusterRender) {
  const stackOf = new Map(render.stacks.filter((s) => s.pool).map((s) => [s.pool!, s.name]));
  const items = new Map(render.nodePools.map((p) => [p.name, p.configItems]));
  const pools = cluster.nodePools.filter((p) => stackOf.has(p.name));
  return Promise.all(
    pools.map(async (pool) => ({
      name: pool.name,
      stackName: stackOf.get(pool.name)!,
      instances: (await cp.pools.getPool(clusterRef(cluster), pool.name))?.instances ?? [],
      policy: rollPolicy(pool, items.get(pool.name) ?? {}, cluster.id),
    })),
  );
}
