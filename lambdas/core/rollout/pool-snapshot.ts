import type { NodeInfo, Taint } from '../../ports/kube-cluster';
import type { PoolInstance, PoolState } from '../../ports/node-pool-backend';
import type { RenewalReason } from '../model/run';
import { preRollDesired, preRollPairing } from './pre-roll-size';

export type { RenewalReason };

/** One instance of the pool joined with its Kubernetes node (matched by `spec.providerID`, CLM §7.1). */
export interface PoolNode {
  readonly instanceId: string;
  readonly availabilityZone: string;
  readonly outdated: boolean;
  readonly lifecycleState: string;
  /** When EC2 launched it (ms since the epoch), when the backend says. */
  readonly launchedAt?: number;
  /** InService, healthy, registered as a Ready node. Instances without a node never count as ready. */
  readonly ready: boolean;
  readonly node?: NodeInfo;
  /** Outdated not by its launch template but by a forced roll, its age or its health (core/node-renewal). */
  readonly renewal?: RenewalReason;
}

export interface PoolSnapshot {
  readonly desired: number;
  readonly min: number;
  readonly max: number;
  readonly nodes: readonly PoolNode[];
  /** The pool's size before the roll, when its groups carry the roll's marks (core/rollout/pre-roll-size.ts). */
  readonly preRollDesired?: number;
  /** Every group carries the roll's mark: a scale-out needs none written first. */
  readonly preRollMarked?: boolean;
  /** The nodes the roll added for same-zone pairing and holds, by the marks (at most: see pre-roll-size.ts). */
  readonly preRollPairing?: number;
}

const GONE_STATES = new Set([
  'Terminating',
  'Terminating:Wait',
  'Terminating:Proceed',
  'Terminated',
  'Detaching',
  'Detached',
]);

/** Terminating, terminated or detaching: no longer part of the pool. */
export function isGoneInstance(instance: Pick<PoolInstance, 'lifecycleState'>): boolean {
  return GONE_STATES.has(instance.lifecycleState);
}

/** The pool's instances that are not on their way out (terminating, terminated, detached). */
export function aliveInstances(pool: PoolState): PoolState['instances'] {
  return pool.instances.filter((instance) => !GONE_STATES.has(instance.lifecycleState));
}

export function instanceIdFromProviderId(providerId: string): string | undefined {
  const match = /^aws:\/\/\/[^/]*\/(i-[0-9a-zA-Z]+)$/.exec(providerId);
  return match?.[1];
}

export function poolSnapshot(pool: PoolState, nodes: readonly NodeInfo[]): PoolSnapshot {
  const byInstance = new Map<string, NodeInfo>();
  for (const node of nodes) {
    const id = instanceIdFromProviderId(node.providerId);
    if (id) byInstance.set(id, node);
  }
  const preRoll = preRollDesired(pool.groups);
  const pairing = preRollPairing(pool.groups);
  return {
    desired: pool.desired,
    min: pool.min,
    max: pool.max,
    ...(preRoll !== undefined ? { preRollDesired: preRoll } : {}),
    ...(pairing !== undefined ? { preRollPairing: pairing } : {}),
    ...(pool.groups.length > 0 && pool.groups.every((g) => g.preRoll) ? { preRollMarked: true } : {}),
    nodes: aliveInstances(pool).map((instance) => {
      const node = byInstance.get(instance.instanceId);
      return {
        instanceId: instance.instanceId,
        availabilityZone: instance.availabilityZone,
        outdated: instance.outdated,
        lifecycleState: instance.lifecycleState,
        ...(instance.launchedAt !== undefined ? { launchedAt: instance.launchedAt } : {}),
        ready: instance.healthy && instance.lifecycleState === 'InService' && node !== undefined && node.ready,
        ...(node ? { node } : {}),
      };
    }),
  };
}

export const DECOMMISSION_TAINT_KEY = 'decommission-pending';
export const LIFECYCLE_LABEL = 'lifecycle-status';
export const DRAIN_START_ANNOTATION = 'cluster-lifecycle-manager.zalando.org/drain-start';
export const LAST_FORCED_ANNOTATION = 'cluster-lifecycle-manager.zalando.org/last-forced-drain';

export function isMarked(node: NodeInfo): boolean {
  return node.taints.some((t) => t.key === DECOMMISSION_TAINT_KEY);
}

/** CLM §7.2: taint decommission-pending=rolling-upgrade (PreferNoSchedule, or NoSchedule when asked and not a master). */
export function decommissionTaint(noSchedule: boolean): Taint {
  return {
    key: DECOMMISSION_TAINT_KEY,
    value: 'rolling-upgrade',
    effect: noSchedule ? 'NoSchedule' : 'PreferNoSchedule',
  };
}
