import { isRecord } from '../config/plain-data';
import { resourcesOf } from '../kube/pod-resources';
import type { KubeObject } from '../../ports/kube-cluster';
import type { NodePoolAtLimit } from './pending-reasons';

type Json = Record<string, unknown>;

function specOf(o: KubeObject): Json {
  return isRecord(o.spec) ? o.spec : {};
}

/**
 * The NodePools whose usage (`status.resources`, as Karpenter keeps it) leaves no room under their `spec.limits` for
 * one more node the size of those they run.
 */
export function nodePoolsAtLimitOf(pools: readonly KubeObject[]): NodePoolAtLimit[] {
  return pools.flatMap((pool) => {
    const limits = isRecord(specOf(pool).limits) ? (specOf(pool).limits as Json) : undefined;
    const status = isRecord(pool.status) ? pool.status : {};
    const used = isRecord(status.resources) ? status.resources : undefined;
    if (!limits || !used) return [];
    const nodes = Number(used.nodes ?? 0);
    if (!nodes) return [];
    const usage = resourcesOf(used);
    const bound = resourcesOf(limits);
    const reached = [
      limits.cpu !== undefined && usage.cpuMillis + usage.cpuMillis / nodes > bound.cpuMillis
        ? `cpu ${usage.cpuMillis / 1000} of ${bound.cpuMillis / 1000}`
        : undefined,
      limits.memory !== undefined && usage.memoryBytes + usage.memoryBytes / nodes > bound.memoryBytes
        ? `memory ${mib(usage.memoryBytes)} of ${mib(bound.memoryBytes)} MiB`
        : undefined,
      limits.nodes !== undefined && nodes + 1 > Number(limits.nodes)
        ? `nodes ${nodes} of ${Number(limits.nodes)}`
        : undefined,
    ].filter((r): r is string => r !== undefined);
    if (!reached.length) return [];
    const template = isRecord(specOf(pool).template) ? (specOf(pool).template as KubeObject) : undefined;
    const labels = { ...(template?.metadata?.labels ?? {}), 'karpenter.sh/nodepool': pool.metadata.name };
    return [{ name: pool.metadata.name, labels, limit: reached.join(', ') }];
  });
}

function mib(bytes: number): number {
  return Math.round(bytes / 1024 / 1024);
}
