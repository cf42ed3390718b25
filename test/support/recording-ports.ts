// Ports that record which members a step touches, so tests hold every task to the ports it declares.
import type { Cluster } from '../../lambdas/core/model/cluster';
import type { ClusterPorts, Ports } from '../../lambdas/ports/ports';
import { CLUSTER_PORTS, SHARED_PORTS } from '../../lambdas/runtime/restrict-ports';
import type { AnyTask, TaskContext } from '../../lambdas/tasks/define-task';

/** What each task touched, by port name. */
export type TouchedPorts = Map<string, Set<string>>;

/** The ports a step receives, recording each member it touches under the task's name. */
export function recordingPorts(task: string, ports: Ports, touched: TouchedPorts): Ports {
  const seen = touched.get(task) ?? new Set<string>();
  touched.set(task, seen);
  const shared = Object.fromEntries(SHARED_PORTS.map((name) => [name, { get: () => (seen.add(name), ports[name]) }]));
  const perCluster = (c: Cluster) =>
    Object.defineProperties(
      {} as ClusterPorts,
      Object.fromEntries(
        CLUSTER_PORTS.map((name) => [name, { get: () => (seen.add(name), ports.forCluster(c)[name]) }]),
      ),
    );
  return Object.assign(Object.defineProperties({} as Ports, shared), { forCluster: perCluster });
}

/** Tasks whose steps record what they touch. */
export function recordingCatalogue(tasks: readonly AnyTask[], touched: TouchedPorts): AnyTask[] {
  return tasks.map((task) => ({
    ...task,
    step: (input: unknown, ports: never, context: TaskContext) =>
      task.step(input, recordingPorts(task.name, ports, touched) as never, context),
  }));
}

/** Each task's touched ports and declared ports, sorted, to compare. */
export function touchedAndDeclared(tasks: readonly AnyTask[], touched: TouchedPorts) {
  return {
    touched: Object.fromEntries(tasks.map((t) => [t.name, [...(touched.get(t.name) ?? [])].sort()])),
    declared: Object.fromEntries(tasks.map((t) => [t.name, Object.keys(t.ports).sort()])),
  };
}
