import type { Leftover, LeftoverKind } from '../core/decommission/leftovers';

export type { Leftover, LeftoverKind } from '../core/decommission/leftovers';

export interface LeftoverScan {
  readonly found: readonly Leftover[];
  /** Kinds this adapter could not look for (the run record and the CLI say so; nothing is assumed gone). */
  readonly unchecked: readonly LeftoverKind[];
}

/**
 * What a cluster left in its account outside CloudFormation (core/decommission/leftovers.ts): load balancers and
 * security groups Kubernetes created, EBS volumes, network interfaces.
 */
export interface ClusterLeftovers {
  /**
   * Resources tagged `kubernetes.io/cluster/<clusterName>` = owned that no CloudFormation stack created (no
   * `aws:cloudformation:stack-id` tag), plus the interfaces tagged `cluster.k8s.amazonaws.com/name` = clusterName.
   * Volumes and interfaces in any state (the plan decides); deleted or deleting ones are not listed.
   */
  find(clusterName: string): Promise<LeftoverScan>;
  /**
   * Deletes one. `in-use` when AWS refuses because something still uses it (DependencyViolation, a volume or
   * interface attached): the next pass tries again. `gone` when it no longer exists.
   */
  delete(item: Leftover): Promise<'deleted' | 'gone' | 'in-use'>;
}
