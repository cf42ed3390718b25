import type { StackEvent } from '../stacks/stack-events';
import type { LearnedTimings, SnapshotPod } from './cluster-snapshot';

/** What the simulator assumes where the cluster's history says nothing (AWS-like: issue 14's figures). */
export const DEFAULT_TIMINGS = {
  stackUpdateSeconds: 300,
  instanceBootSeconds: 180,
  nodeReadySeconds: 20,
  podStartSeconds: 10,
  podTerminationSeconds: 30,
} as const;

const STACK = 'AWS::CloudFormation::Stack';

export function median(values: readonly number[]): number | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The durations of a stack's completed updates, from its own events (DescribeStackEvents, newest first): each
 * UPDATE_IN_PROGRESS of the stack to the UPDATE_COMPLETE that ends it, in seconds.
 */
export function stackUpdateDurations(
  events: readonly StackEvent[],
  operation: 'UPDATE' | 'CREATE' = 'UPDATE',
): number[] {
  const own = events.filter((e) => e.resourceType === STACK).reverse();
  const durations: number[] = [];
  let started: number | undefined;
  for (const event of own) {
    const at = Date.parse(event.timestamp);
    if (event.resourceStatus === `${operation}_IN_PROGRESS`) started = at;
    else if (event.resourceStatus === `${operation}_COMPLETE` && started !== undefined) {
      durations.push((at - started) / 1000);
      started = undefined;
    } else if (!event.resourceStatus.startsWith(`${operation}_COMPLETE`)) started = undefined;
  }
  return durations;
}

/** Mean termination grace per owner kind (a ReplicaSet's pods count as its Deployment's). */
export function drainSecondsByKind(pods: readonly SnapshotPod[]): Record<string, number> {
  const sums = new Map<string, { total: number; n: number }>();
  for (const pod of pods) {
    const kind = pod.owner?.kind === 'ReplicaSet' ? 'Deployment' : (pod.owner?.kind ?? 'Pod');
    const sum = sums.get(kind) ?? { total: 0, n: 0 };
    sums.set(kind, { total: sum.total + pod.terminationGracePeriodSeconds, n: sum.n + 1 });
  }
  return Object.fromEntries([...sums].sort().map(([kind, { total, n }]) => [kind, Math.round(total / n)]));
}

/**
 * The twin's timings: stack updates as the cluster's stacks took (their events), a boot as its nodes took from their
 * instance's launch to joining, a Node Ready as long after, drains by the pods' own grace; defaults where nothing
 * was seen.
 */
export function learnedTimings(seen: {
  readonly stackUpdates: readonly number[];
  readonly boots: readonly number[];
  readonly readies: readonly number[];
  readonly pods: readonly SnapshotPod[];
}): LearnedTimings {
  const stack = median(seen.stackUpdates);
  const boot = median(seen.boots.filter((s) => s > 0 && s < 3600));
  const ready = median(seen.readies.filter((s) => s >= 0 && s < 3600));
  return {
    stackUpdateSeconds: Math.round(stack ?? DEFAULT_TIMINGS.stackUpdateSeconds),
    instanceBootSeconds: Math.round(boot ?? DEFAULT_TIMINGS.instanceBootSeconds),
    nodeReadySeconds: Math.round(ready ?? DEFAULT_TIMINGS.nodeReadySeconds),
    podStartSeconds: DEFAULT_TIMINGS.podStartSeconds,
    podTerminationSeconds: DEFAULT_TIMINGS.podTerminationSeconds,
    drainSecondsByKind: drainSecondsByKind(seen.pods),
    sources: {
      stackUpdateSeconds: stack === undefined ? 'default' : 'history',
      instanceBootSeconds: boot === undefined ? 'default' : 'history',
      nodeReadySeconds: ready === undefined ? 'default' : 'history',
    },
  };
}
