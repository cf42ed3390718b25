import type { Cluster } from '../../../lambdas/core/model/cluster';
import type { ClusterPorts, Ports } from '../../../lambdas/ports/ports';

export type Call = { port: string; method: string; args: unknown[] };

function recorded<T extends object>(port: string, target: T, calls: Call[]): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push({ port, method: String(key), args });
        return (value as (...a: unknown[]) => unknown).apply(object, args);
      };
    },
  });
}

/** The ports with every call recorded (the config sources each under `sources`). */
export function recordingPorts(ports: Ports, calls: Call[]): Ports {
  const shared = ['registry', 'artifacts', 'progress', 'clock', 'templates', 'secrets', 'fleet', 'executions'] as const;
  const wrapped = Object.fromEntries(shared.map((name) => [name, recorded(name, ports[name], calls)]));
  return {
    ...ports,
    ...wrapped,
    sources: ports.sources.map((s) => recorded('sources', s, calls)),
    forCluster: (cluster: Cluster) => {
      const cp = ports.forCluster(cluster);
      const names = [
        'stacks',
        'pools',
        'kube',
        'lookups',
        'values',
        'alarms',
        'leftovers',
        'eks',
        'nodeFiles',
        'quotas',
      ] as const;
      return Object.fromEntries(names.map((n) => [n, recorded(n, cp[n], calls)])) as unknown as ClusterPorts;
    },
  } as Ports;
}
