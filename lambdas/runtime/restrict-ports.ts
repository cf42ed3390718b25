import type { Cluster } from '../core/model/cluster';
import type { ClusterPorts, Ports } from '../ports/ports';
import { ConfigError } from '../shared/errors';
import { perClusterConnection } from './cluster-connection-key';
import type { ClusterPortName, PortName, PortNeeds, SharedPortName } from '../tasks/define-task';

/** How to build ports: shared members from nothing, cluster members from the cluster. Any subset. */
export type PortFactories = { readonly [K in SharedPortName]?: () => Ports[K] } & {
  readonly cluster?: { readonly [K in ClusterPortName]?: (cluster: Cluster) => ClusterPorts[K] };
};

/** Every port by name, so a port added to Ports that is missing here is a type error. */
const SHARED: Readonly<Record<SharedPortName, true>> = {
  registry: true,
  sources: true,
  artifacts: true,
  progress: true,
  clock: true,
  templates: true,
  secrets: true,
  fleet: true,
  executions: true,
  events: true,
  webhooks: true,
  forge: true,
  launches: true,
  rehearsals: true,
};
const PER_CLUSTER: Readonly<Record<ClusterPortName, true>> = {
  stacks: true,
  pools: true,
  kube: true,
  lookups: true,
  values: true,
  alarms: true,
  leftovers: true,
  eks: true,
  nodeFiles: true,
  quotas: true,
};
export const SHARED_PORTS = Object.keys(SHARED) as SharedPortName[];
export const CLUSTER_PORTS = Object.keys(PER_CLUSTER) as ClusterPortName[];

/**
 * The ports of one task: each member it declares (`task.ports`) is built by its factory on first access, shared
 * members once, cluster members once per cluster id and again when that cluster's connection changes
 * (cluster-connection-key.ts); touching a member the task does not declare throws a
 * ConfigError naming the task and the member. The Lambda runtime and the in-process runner both run every task
 * through this, so a step that reaches for an undeclared port fails in every test, not first in AWS.
 */
export function restrictPorts(task: string, needs: PortNeeds, factories: PortFactories): Ports {
  const built = new Map<string, unknown>();
  const clusterBuilds = new Map<ClusterPortName, (cluster: Cluster) => unknown>();
  const once = <T>(key: string, build: () => T): T => {
    if (!built.has(key)) built.set(key, build());
    return built.get(key) as T;
  };
  const member = <K extends SharedPortName>(name: K): Ports[K] => {
    const factory = factories[name] as (() => Ports[K]) | undefined;
    if (!needs[name] || !factory) throw notWired(task, `ports.${name}`, name, needs);
    return once(name, factory);
  };
  const clusterMember = <K extends ClusterPortName>(cluster: Cluster, name: K): ClusterPorts[K] => {
    const factory = factories.cluster?.[name] as ((cluster: Cluster) => ClusterPorts[K]) | undefined;
    if (!needs[name] || !factory) throw notWired(task, `forCluster(${cluster.id}).${name}`, name, needs);
    // Per cluster id, the latest build: a cluster whose URL, account, region or config items changed (in the
    // registry, between two invocations of a warm container) gets its members built again.
    let byCluster = clusterBuilds.get(name) as ((cluster: Cluster) => ClusterPorts[K]) | undefined;
    if (!byCluster) {
      byCluster = perClusterConnection(factory);
      clusterBuilds.set(name, byCluster);
    }
    return byCluster(cluster);
  };
  const ports = Object.defineProperties(
    {} as Ports,
    getters(SHARED_PORTS, (name) => member(name)),
  );
  return Object.assign(ports, {
    forCluster: (cluster: Cluster) =>
      Object.defineProperties(
        {} as ClusterPorts,
        getters(CLUSTER_PORTS, (name) => clusterMember(cluster, name)),
      ),
  });
}

/** Factories that hand out the members of complete ports (the CLI's and the tests' real or simulated world). */
export function factoriesOf(ports: Ports): PortFactories {
  const shared = Object.fromEntries(SHARED_PORTS.map((name) => [name, () => ports[name]]));
  const cluster = Object.fromEntries(CLUSTER_PORTS.map((name) => [name, (c: Cluster) => ports.forCluster(c)[name]]));
  return { ...shared, cluster } as PortFactories;
}

function getters<K extends string>(names: readonly K[], get: (name: K) => unknown): PropertyDescriptorMap {
  return Object.fromEntries(names.map((name) => [name, { get: () => get(name), enumerable: true }]));
}

function notWired(task: string, what: string, name: PortName, needs: PortNeeds): ConfigError {
  const declared = Object.keys(needs).sort().join(', ') || 'none';
  return new ConfigError(
    needs[name]
      ? `${task}: ${what} has no factory in this runtime (declared ports: ${declared})`
      : `${task}: ${what} is not one of the task's ports (declared: ${declared}); add it to the task's ports in lambdas/tasks/`,
  );
}
