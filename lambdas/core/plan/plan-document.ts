import type { ObjectRef } from '../../ports/kube-cluster';
import type { StackChange } from '../../ports/stack-deployer';
import type { ConfigItemChange } from './config-item-changes';
import type { FieldChange } from './field-diff';
import type { PoolRollEstimate } from './roll-estimate';
import type { Rehearsal } from '../rehearsal/rehearsal-report';

/** What one stack's change set says: created new, changed, or nothing to do. */
export interface StackPlan {
  readonly name: string;
  readonly kind: 'cluster' | 'node-pool' | 'cf-manifest' | 'etcd';
  readonly action: 'create' | 'update' | 'no-changes';
  readonly changes: readonly StackChange[];
}

/** One manifest object after a server-side dry-run apply. */
export interface ObjectPlan {
  readonly ref: ObjectRef;
  readonly file: string;
  readonly action: 'create' | 'update' | 'unchanged';
  readonly fields: readonly FieldChange[];
}

export interface DeletionPlan {
  readonly ref: ObjectRef;
  /** `prune` (applied last time, no longer rendered) or the deletions file and entry. */
  readonly reason: string;
}

/** The plan of one cluster: everything an update would do, nothing of it done. */
export interface ClusterPlan {
  readonly clusterId: string;
  readonly currentVersion?: string;
  readonly targetVersion: string;
  readonly configItems: readonly ConfigItemChange[];
  readonly stacks: readonly StackPlan[];
  readonly objects: readonly ObjectPlan[];
  readonly deletions: readonly DeletionPlan[];
  readonly pools: readonly PoolRollEstimate[];
  /** Problems found while planning (e.g. a dry-run apply the API server refused): the plan is incomplete. */
  readonly problems: readonly string[];
  /** What the plan could not check and why, e.g. no API server yet for a new cluster. */
  readonly notes: readonly string[];
  /** A cluster pinning a cluster stack: which layers change and which steps the update skips. */
  readonly layers?: {
    readonly from?: string;
    readonly to: string;
    readonly changed: readonly string[];
    readonly skipped: readonly string[];
    readonly summary: string;
    /** The Kubernetes versions the upgrade rules were checked against: read live, or why the recorded one was. */
    readonly kubernetes?: string;
  };
  /** `--rehearse`: how the update went in the cluster's twin (several runs, varied timings). */
  readonly rehearsal?: Rehearsal;
}

/** One stack's change-set answer as a plan entry. */
export function stackPlan(
  stack: { readonly name: string; readonly kind: StackPlan['kind'] },
  answer: { readonly exists: boolean; readonly changes: readonly StackChange[] },
): StackPlan {
  const action = !answer.exists ? 'create' : answer.changes.length ? 'update' : 'no-changes';
  return { name: stack.name, kind: stack.kind, action, changes: answer.changes };
}

/** Whether applying the plan would change anything at all. */
export function hasChanges(plan: ClusterPlan): boolean {
  return (
    plan.stacks.some((s) => s.action !== 'no-changes') ||
    plan.objects.some((o) => o.action !== 'unchanged') ||
    plan.deletions.length > 0 ||
    plan.pools.some((p) => p.nodes > 0)
  );
}
