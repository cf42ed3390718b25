import { PINNED_INSTANCE_TYPES } from '../../core/values/instance-types';
import { NO_RESOURCES, addResources, fitsInto, type Resources } from '../../core/kube/pod-resources';
import type { KubeState, SimNode, SimPod } from '../world-state';

/**
 * A node's allocatable CPU and memory, as the kubelet of the EKS-optimised AMIs reserves it: CPU 6 % of the first
 * core, 1 % of the second, 0.5 % of the next two, 0.25 % of the rest; memory 255 MiB + 11 MiB per pod (110 pods)
 * for the system, and the 100 MiB hard-eviction threshold. An instance type the table does not know: no limit (the
 * scheduler then counts pods only, as before requests were modelled).
 */
export function allocatableOf(instanceType: string): Resources | undefined {
  const info = PINNED_INSTANCE_TYPES.get(instanceType);
  if (!info) return undefined;
  const cores = info.vcpu;
  const reservedCpu =
    60 + (cores > 1 ? 10 : 0) + Math.min(Math.max(cores - 2, 0), 2) * 5 + Math.max(cores - 4, 0) * 2.5;
  const reservedMiB = 255 + 11 * 110 + 100;
  return {
    cpuMillis: Math.floor(cores * 1000 - reservedCpu),
    memoryBytes: (info.memoryMiB - reservedMiB) * 1024 * 1024,
  };
}

/** CPU and memory the pods bound to each node request (terminating pods hold theirs until they are gone). */
export function requestedByNode(kube: KubeState): Map<string, Resources> {
  const used = new Map<string, Resources>();
  for (const pod of Object.values(kube.pods))
    if (pod.nodeName && pod.requests)
      used.set(pod.nodeName, addResources(used.get(pod.nodeName) ?? NO_RESOURCES, pod.requests));
  return used;
}

/** The pod's requests fit into what the node has left. */
export function hasRoomFor(pod: SimPod, node: SimNode, used: ReadonlyMap<string, Resources>): boolean {
  if (!node.allocatable || !pod.requests) return true;
  return fitsInto(pod.requests, used.get(node.name) ?? NO_RESOURCES, node.allocatable);
}

/** How many of the largest of these pods a node of this type holds by their requests (Karpenter's bin-packing). */
export function podsByRequests(pods: readonly SimPod[], instanceType: string): number {
  const allocatable = allocatableOf(instanceType);
  if (!allocatable) return Number.POSITIVE_INFINITY;
  const cpu = Math.max(0, ...pods.map((p) => p.requests?.cpuMillis ?? 0));
  const memory = Math.max(0, ...pods.map((p) => p.requests?.memoryBytes ?? 0));
  return Math.min(
    cpu ? Math.floor(allocatable.cpuMillis / cpu) : Number.POSITIVE_INFINITY,
    memory ? Math.floor(allocatable.memoryBytes / memory) : Number.POSITIVE_INFINITY,
  );
}
