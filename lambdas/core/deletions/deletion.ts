/**
 * Declarative deletions (reference/clm-behaviour.md §5), parsed from `cluster/manifests/deletions.yaml`
 * and `cluster/cf-manifests/cf-deletions.yaml` of every config source.
 */

export const PROPAGATION_POLICIES = ['Orphan', 'Background', 'Foreground'] as const;
export type PropagationPolicy = (typeof PROPAGATION_POLICIES)[number];

interface DeletionBase {
  /** Kind, singular or plural resource name (any case), or `resource.version.group`. */
  readonly kind: string;
  /** No default (CLM's code, not its README): absent means cluster-wide / all namespaces. */
  readonly namespace?: string;
  readonly propagationPolicy?: PropagationPolicy;
  readonly gracePeriodSeconds?: number;
}

/** Exactly one of `name`, `selector` or `labels`; `hasOwner` only with a selector or labels. */
export type Deletion =
  | (DeletionBase & { readonly name: string })
  | (DeletionBase & { readonly selector: string; readonly hasOwner?: boolean })
  | (DeletionBase & { readonly labels: Readonly<Record<string, string>>; readonly hasOwner?: boolean });

export interface Deletions {
  /** Run before any manifest is applied. */
  readonly preApply: readonly Deletion[];
  /** Run after all manifests are applied. */
  readonly postApply: readonly Deletion[];
}

export interface CfDeletion {
  readonly stackName: string;
}

export interface CfDeletions {
  readonly preApply: readonly CfDeletion[];
  readonly postApply: readonly CfDeletion[];
}

export const NO_DELETIONS: Deletions = { preApply: [], postApply: [] };
export const NO_CF_DELETIONS: CfDeletions = { preApply: [], postApply: [] };

/** Lists of all sources concatenated in source order (CLM §3.2). */
export function concatDeletions(parts: readonly Deletions[]): Deletions {
  return { preApply: parts.flatMap((p) => p.preApply), postApply: parts.flatMap((p) => p.postApply) };
}

export function concatCfDeletions(parts: readonly CfDeletions[]): CfDeletions {
  return { preApply: parts.flatMap((p) => p.preApply), postApply: parts.flatMap((p) => p.postApply) };
}

/** Every entry with where it stands (`pre_apply[0]`, `post_apply[2]`), pre-apply first. */
export function deletionEntries(deletions: Deletions): { readonly entry: Deletion; readonly where: string }[] {
  return [
    ...deletions.preApply.map((entry, i) => ({ entry, where: `pre_apply[${i}]` })),
    ...deletions.postApply.map((entry, i) => ({ entry, where: `post_apply[${i}]` })),
  ];
}
