import { approvalSetting } from '../approval/approval';
import { clusterStackPin } from '../cluster-stacks/stack-ref';
import { controllerRef, controllerTimeoutMs } from '../karpenter/controller-items';
import { karpenterRequirements } from '../karpenter/karpenter-pool';
import { manifestDrift, manifestHealthJobs, manifestHealthTimeoutMs } from '../manifests/manifest-items';
import { kubeAuthConfig, KUBE_AUTH_ITEMS } from '../kube/kube-auth-config';
import { isKarpenterPool, type Cluster, type ConfigItems, type NodePool } from '../model/cluster';
import type { RenderIssue } from '../render/render-issue';
import { rollPolicy } from '../rollout/roll-policy';
import { parseMaintenanceWindows } from '../schedule/maintenance-windows';
import { parseTaint } from '../template-helpers/kube';
import { channelOverrides } from '../version/resolve-config-version';
import { ClmError, ERROR_NAMES } from '../../shared/errors';
import { booleanItem } from './boolean-item';
import { mergeConfigDefaults } from './config-defaults';
import { inheritConfigItems, renderConfigDefaultFiles, sortedItems } from './effective-config-items';
import type { ConfigSnapshot } from '../../ports/config-source';
import type { TemplateEngine } from '../../ports/template-engine';

/** Where an item's value came from: the registry, or the config-defaults.yaml that supplied it (its last source). */
export interface ItemOrigin {
  readonly file: string;
  readonly line?: number;
}

export interface ConfigItemsToCheck {
  /** The cluster as the registry holds it: its own items and its pools' own items. */
  readonly cluster: Cluster;
  /** The cluster's effective items: the config-defaults of every source with the registry's items over them. */
  readonly merged: ConfigItems;
  /** For each item a config-defaults.yaml supplied, that file. */
  readonly defaults: ReadonlyMap<string, ItemOrigin>;
  /** The config sources' names (`override_channel` may only name these). */
  readonly sourceNames?: readonly string[];
}

/** The items the roll reads for each pool (core/rollout/roll-policy.ts): every one is checked on its own. */
const ROLL_ITEMS = [
  'update_max_surge',
  'update_max_unavailable',
  'update_canary',
  'update_canary_soak',
  'update_health_timeout',
  'update_volume_detach_timeout',
  'update_hook_timeout',
  'decommission_node_no_schedule_taint',
  'drain_grace_period',
  'drain_min_pod_lifetime',
  'drain_min_healthy_sibling_lifetime',
  'drain_min_unhealthy_sibling_lifetime',
  'drain_force_evict_interval',
  'drain_poll_interval',
] as const;

type Read = (items: ConfigItems, cluster: Cluster) => unknown;

/**
 * Every config item the engine interprets, at the cluster level (the effective items) and at each node pool's (its
 * own items over the cluster's), read by the very functions the steps read it with later — so whatever would fail a
 * roll, a window gate, an approval or a Karpenter step after the first write fails here, before it, in plan and
 * provision alike. Items only templates read are the templates' business (a render names them).
 */
const CLUSTER_READS: readonly (readonly [string, Read])[] = [
  ['maintenance_windows', (items, c) => windows(items, c.id)],
  [
    'maintenance_windows_manifests_anytime',
    (items, c) => booleanItem(items, 'maintenance_windows_manifests_anytime', c.id),
  ],
  ['update_requires_approval', (items, c) => approvalSetting(items, c.id)],
  ['update_approval_timeout', (items, c) => approvalSetting(items, c.id)],
  ['karpenter_controller', (items, c) => controllerRef(items, c.id)],
  ['karpenter_controller_timeout', (items, c) => controllerTimeoutMs(items, c.id)],
  ['update_health_alarm', (items, c) => alarmName(items.update_health_alarm, c.id)],
  ['manifest_health_timeout', (items, c) => manifestHealthTimeoutMs(items, c.id)],
  ['manifest_health_jobs', (items, c) => manifestHealthJobs(items, c.id)],
  ['manifest_drift', (items, c) => manifestDrift(items, c.id)],
  ['vpc_id', (items, c) => pattern(items.vpc_id, /^vpc-[0-9a-f]{8,17}$/, 'a VPC id (vpc-0123abcd)', c.id)],
  ['subnets', (items, c) => list(items.subnets, /^subnet-[0-9a-f]{8,17}$/, 'subnet ids (subnet-0123abcd)', c.id)],
  ['availability_zones', (items, c) => zones(items.availability_zones, c)],
];

/** The problems of a cluster's config items, each naming the item, the pool and where its value came from. */
export function configItemIssues(input: ConfigItemsToCheck): RenderIssue[] {
  const { cluster, merged } = input;
  const issues: RenderIssue[] = [];
  const seen = new Set<string>();
  const check = (key: string, items: ConfigItems, read: () => unknown, pool?: NodePool) => {
    if (items[key] === undefined) return;
    // An item a pool inherits is the cluster's: checked (and reported) once, at the cluster level.
    const own = pool !== undefined && pool.configItems[key] !== undefined;
    if (pool && !own) return;
    try {
      read();
    } catch (error) {
      if (!(error instanceof ClmError) || error.retryable) throw error;
      const issue = issueOf(input, key, own ? pool : undefined, error);
      if (!seen.has(issue.message)) issues.push(issue);
      seen.add(issue.message);
    }
  };
  const clusterView = { ...cluster, configItems: merged };
  for (const [key, read] of CLUSTER_READS) check(key, merged, () => read(merged, clusterView));
  check('override_channel', merged, () => channelOverrides(clusterView, input.sourceNames));
  for (const key of ['cluster_stack', 'cluster_stack_version']) check(key, merged, () => clusterStackPin(clusterView));
  if (merged[KUBE_AUTH_ITEMS.mode] !== undefined)
    for (const key of Object.values(KUBE_AUTH_ITEMS)) check(key, merged, () => kubeAuthConfig(clusterView, 'token'));
  const anyPool = cluster.nodePools[0] ?? { name: '', maxSize: 0, discountStrategy: '' };
  for (const key of ROLL_ITEMS) check(key, merged, () => rollPolicy(anyPool, { [key]: merged[key]! }, cluster.id));
  for (const pool of cluster.nodePools) {
    const items = inheritConfigItems(merged, pool.configItems);
    for (const key of ROLL_ITEMS) check(key, items, () => rollPolicy(pool, { [key]: items[key]! }, cluster.id), pool);
    for (const [key, read] of CLUSTER_READS.filter(([k]) => k === 'maintenance_windows' || k === 'update_health_alarm'))
      check(key, items, () => read(items, clusterView), pool);
    check('taints', items, () => taints(items.taints, cluster.id), pool);
    if (isKarpenterPool(pool)) check('requirements', items, () => karpenterRequirements(pool, cluster.id), pool);
  }
  return issues;
}

/** `cluster X: config item K (node pool P, from F:12): what is wrong`. */
function issueOf(input: ConfigItemsToCheck, key: string, pool: NodePool | undefined, error: ClmError): RenderIssue {
  const fromDefaults = pool === undefined && input.cluster.configItems[key] === undefined;
  const origin = fromDefaults ? input.defaults.get(key) : undefined;
  const source = origin ? `${origin.file}${origin.line ? `:${origin.line}` : ''}` : 'the registry';
  const where = [pool ? `node pool ${pool.name}` : undefined, `from ${source}`].filter(Boolean).join(', ');
  return {
    error: error.name === ERROR_NAMES.ConfigError ? error.name : ERROR_NAMES.ValidationError,
    message: `cluster ${input.cluster.id}: config item ${key} (${where}): ${error.problem}`,
    ...(origin ? { file: origin.file, ...(origin.line ? { line: origin.line } : {}) } : {}),
  };
}

function windows(items: ConfigItems, clusterId: string): unknown {
  const text = items.maintenance_windows;
  if (text === undefined) return undefined;
  try {
    return parseMaintenanceWindows(text, 'value');
  } catch (error) {
    if (!(error instanceof ClmError)) throw error;
    return fail(error.problem.replace(/^value: /, ''), clusterId);
  }
}

function fail(message: string, clusterId: string): never {
  throw new ClmError(message, { location: { clusterId } });
}

/** A CloudWatch alarm name: 1 to 255 characters, no control characters. */
function alarmName(value: string | undefined, clusterId: string): void {
  if (value === undefined) return;
  if (value.length === 0 || value.length > 255 || /[\u0000-\u001f\u007f]/.test(value))
    fail(
      `${JSON.stringify(value)} is not a CloudWatch alarm name (1-255 characters, no control characters)`,
      clusterId,
    );
}

function pattern(value: string | undefined, shape: RegExp, what: string, clusterId: string): void {
  if (value !== undefined && !shape.test(value.trim())) fail(`${JSON.stringify(value)} is not ${what}`, clusterId);
}

function list(value: string | undefined, shape: RegExp, what: string, clusterId: string): void {
  const entries = (value ?? '').split(',').map((s) => s.trim());
  const bad = entries.filter((e) => e !== '' && !shape.test(e));
  if (bad.length) fail(`${bad.map((b) => JSON.stringify(b)).join(', ')}: expected a comma list of ${what}`, clusterId);
}

/** Zones of the cluster's region (`eu-central-1a`, or a Local Zone `eu-central-1-ham-1a`). */
function zones(value: string | undefined, cluster: Cluster): void {
  const region = cluster.region.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  list(value, new RegExp(`^${region}(-[a-z0-9]+)*[a-z]$`), `availability zones of ${cluster.region}`, cluster.id);
}

/** The pool item `taints`: each comma-separated entry `key[=value]:Effect` (an invalid one would be dropped). */
function taints(value: string | undefined, clusterId: string): void {
  const bad = (value ?? '').split(',').filter((spec) => spec.trim() !== '' && parseTaint(spec) === undefined);
  if (bad.length)
    fail(
      `${bad.map((b) => JSON.stringify(b)).join(', ')}: expected key[=value]:Effect (NoSchedule, PreferNoSchedule, NoExecute)`,
      clusterId,
    );
}

/**
 * The cluster's effective config items (every source's config-defaults.yaml under the registry's items) and their
 * problems, each naming where its value came from: RenderConfig and `clm plan` both read the items through this.
 */
export async function checkedConfigItems(
  cluster: Cluster,
  snapshots: readonly ConfigSnapshot[],
  engine: TemplateEngine,
): Promise<{ readonly merged: ConfigItems; readonly issues: RenderIssue[] }> {
  const files = await renderConfigDefaultFiles(cluster, snapshots, engine);
  const merged = sortedItems(
    mergeConfigDefaults(
      files.map((f) => f.items),
      cluster.configItems,
    ),
  );
  const defaults = new Map<string, ItemOrigin>();
  for (const { file, source, items } of files)
    for (const [key, value] of Object.entries(items)) {
      const line = lineOfDefault(source, key, value);
      defaults.set(key, { file, ...(line ? { line } : {}) });
    }
  const sourceNames = snapshots.map((s) => s.sourceName);
  return { merged, issues: configItemIssues({ cluster, merged, defaults, sourceNames }) };
}

/**
 * The line of `key` in a config-defaults.yaml template: the one whose written value is the rendered one when the key
 * is written more than once (an `{{#if}}` per environment), else its first.
 */
function lineOfDefault(template: string, key: string, value: string): number | undefined {
  const lines = template.split('\n');
  const unquote = (text: string) => text.trim().replace(/^(["'])(.*)\1$/, '$2');
  const at = lines.flatMap((line, i) => {
    const match = /^\s*(["']?)([^\s"':#]+)\1\s*:(.*)$/.exec(line);
    return match && match[2] === key ? [{ line: i + 1, value: unquote(match[3]!.replace(/\s+#.*$/, '')) }] : [];
  });
  return (at.find((a) => a.value === value) ?? at[0])?.line;
}
