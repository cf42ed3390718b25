import type { Cluster } from '../../core/model/cluster';
import type { ClusterPorts, Ports } from '../../ports/ports';
import { ConfigError } from '../../shared/errors';
import type { TaskName } from '../../tasks/cluster-update-tasks';
import { TASK_PORTS } from './task-ports';
import type { ClusterPortName, PortName, PortSelection, TaskPorts } from './task-ports';

/** How to build each member a selection names: shared members from nothing, cluster members from the cluster. */
export type PortFactories<S extends PortSelection> = {
  readonly [K in S['ports'][number]]: () => Ports[K];
} & {
  readonly cluster: { readonly [K in S['cluster'][number]]: (cluster: Cluster) => ClusterPorts[K] };
};

export type TaskPortFactories<N extends TaskName> = PortFactories<TaskPorts[N]>;

/**
 * The Ports of one task (TASK_PORTS[task]): each member is built by its factory on first access, shared members once,
 * cluster members once per cluster id; touching a member the task does not list throws a ConfigError naming it.
 */
export function lazyPorts<N extends TaskName>(task: N, factories: TaskPortFactories<N>): Ports {
  const selection: PortSelection = TASK_PORTS[task];
  const shared = factories as unknown as Partial<Record<PortName, () => unknown>>;
  const perCluster = factories.cluster as Partial<Record<ClusterPortName, (cluster: Cluster) => unknown>>;
  const built = new Map<string, unknown>();

  const once = <T>(key: string, build: () => T): T => {
    if (!built.has(key)) built.set(key, build());
    return built.get(key) as T;
  };
  const member = <K extends PortName>(name: K): Ports[K] => {
    const factory = shared[name];
    if (!selection.ports.includes(name) || !factory) throw notWired(task, `ports.${name}`);
    return once(name, factory) as Ports[K];
  };
  const clusterMember = <K extends ClusterPortName>(cluster: Cluster, name: K): ClusterPorts[K] => {
    const factory = perCluster[name];
    if (!selection.cluster.includes(name) || !factory) throw notWired(task, `forCluster(${cluster.id}).${name}`);
    return once(`${cluster.id}\u0000${name}`, () => factory(cluster)) as ClusterPorts[K];
  };

  return {
    get registry() {
      return member('registry');
    },
    get sources() {
      return member('sources');
    },
    get artifacts() {
      return member('artifacts');
    },
    get progress() {
      return member('progress');
    },
    get clock() {
      return member('clock');
    },
    get templates() {
      return member('templates');
    },
    get secrets() {
      return member('secrets');
    },
    forCluster(cluster: Cluster): ClusterPorts {
      return {
        get stacks() {
          return clusterMember(cluster, 'stacks');
        },
        get pools() {
          return clusterMember(cluster, 'pools');
        },
        get kube() {
          return clusterMember(cluster, 'kube');
        },
        get lookups() {
          return clusterMember(cluster, 'lookups');
        },
        get values() {
          return clusterMember(cluster, 'values');
        },
      };
    },
  };
}

function notWired(task: string, what: string): ConfigError {
  return new ConfigError(
    `${task}: ${what} is not wired for this task; list it in TASK_PORTS (lambdas/adapters/wiring/task-ports.ts) and build it in the task's wiring (lambdas/adapters/wiring/lambda-ports.ts)`,
  );
}
