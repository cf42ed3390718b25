import { parseQuantity } from '../template-helpers/quantities';

/** CPU (millicores) and memory (bytes) a pod requests, or a node offers. */
export interface Resources {
  readonly cpuMillis: number;
  readonly memoryBytes: number;
}

export const NO_RESOURCES: Resources = { cpuMillis: 0, memoryBytes: 0 };

function quantity(value: unknown, unit: bigint): number {
  if (typeof value === 'number') return Number((BigInt(Math.round(value * 1e9)) + unit - 1n) / unit);
  if (typeof value !== 'string' || value === '') return 0;
  try {
    const nanos = parseQuantity(value).nanos;
    return Number((nanos + unit - 1n) / unit);
  } catch {
    return 0;
  }
}

/** `{ cpu, memory }` of a resource list (requests, allocatable) in millicores and bytes, rounded up. */
export function resourcesOf(list: unknown): Resources {
  const map = (list ?? {}) as Record<string, unknown>;
  return { cpuMillis: quantity(map.cpu, 1_000_000n), memoryBytes: quantity(map.memory, 1_000_000_000n) };
}

export function addResources(a: Resources, b: Resources): Resources {
  return { cpuMillis: a.cpuMillis + b.cpuMillis, memoryBytes: a.memoryBytes + b.memoryBytes };
}

function maxResources(a: Resources, b: Resources): Resources {
  return { cpuMillis: Math.max(a.cpuMillis, b.cpuMillis), memoryBytes: Math.max(a.memoryBytes, b.memoryBytes) };
}

type Containers = readonly { readonly resources?: { readonly requests?: unknown } }[] | undefined;

/**
 * What the scheduler reserves for a pod: the sum of its containers' requests, at least the largest init container's
 * (init containers run one at a time, before the others), as kube-scheduler's `computePodResourceRequest`.
 */
export function podRequests(spec: { readonly containers?: unknown; readonly initContainers?: unknown }): Resources {
  const sum = ((spec.containers ?? []) as Containers)!.reduce(
    (total, c) => addResources(total, resourcesOf(c.resources?.requests)),
    NO_RESOURCES,
  );
  const init = ((spec.initContainers ?? []) as Containers)!.reduce(
    (largest, c) => maxResources(largest, resourcesOf(c.resources?.requests)),
    NO_RESOURCES,
  );
  return maxResources(sum, init);
}

/** Whether `request` fits into what is left of `allocatable` once `used` is taken. */
export function fitsInto(request: Resources, used: Resources, allocatable: Resources): boolean {
  return (
    used.cpuMillis + request.cpuMillis <= allocatable.cpuMillis &&
    used.memoryBytes + request.memoryBytes <= allocatable.memoryBytes
  );
}
