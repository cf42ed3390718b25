import type { NodeInfo } from '../../ports/kube-cluster';

/**
 * Lifecycle hooks as Cluster API's Machine deletion hooks, on the node: an external controller sets
 * `pre-drain.delete.hook.clm.zalando.org/<name>` or `pre-terminate.delete.hook.clm.zalando.org/<name>` on a node it
 * must act on before the roll drains or terminates it, and removes the annotation when it is done. The roll tells it
 * where a node is by the annotation `clm.zalando.org/lifecycle-phase` (`pre-drain`, then `pre-terminate`) and waits,
 * bounded by the pool's `update_hook_timeout`. Pure.
 */

export const HOOK_PHASES = ['pre-drain', 'pre-terminate'] as const;
export type HookPhase = (typeof HOOK_PHASES)[number];

export const HOOK_DOMAIN = 'delete.hook.clm.zalando.org';
export const LIFECYCLE_PHASE_ANNOTATION = 'clm.zalando.org/lifecycle-phase';

/** `pre-drain.delete.hook.clm.zalando.org/` */
export function hookPrefix(phase: HookPhase): string {
  return `${phase}.${HOOK_DOMAIN}/`;
}

/** The hooks of `phase` the node still carries (the names after the prefix, sorted). */
export function pendingHooks(node: Pick<NodeInfo, 'annotations'> | undefined, phase: HookPhase): string[] {
  if (!node) return [];
  const prefix = hookPrefix(phase);
  return Object.keys(node.annotations)
    .filter((key) => key.startsWith(prefix))
    .map((key) => key.slice(prefix.length) || '(unnamed)')
    .sort();
}

export type HookVerdict =
  | { readonly kind: 'go' }
  | { readonly kind: 'wait'; readonly since: number; readonly blocked: string }
  | { readonly kind: 'timeout'; readonly detail: string };

/** Whether the node may pass `phase` now: no hook left, still within the bound (waiting since `since`), or over it. */
export function hookVerdict(
  nodeName: string,
  hooks: readonly string[],
  phase: HookPhase,
  since: number | undefined,
  timeoutMs: number,
  now: number,
): HookVerdict {
  if (hooks.length === 0) return { kind: 'go' };
  const start = since ?? now;
  const names = hooks.join(', ');
  if (now - start > timeoutMs)
    return {
      kind: 'timeout',
      detail:
        `node ${nodeName}: ${phase} hook(s) ${names} still set after ${Math.round((now - start) / 1000)}s ` +
        `(update_hook_timeout ${Math.round(timeoutMs / 1000)}s); the controller that owns ` +
        `${hookPrefix(phase)}${hooks[0]} must finish and remove it (or remove it by hand) for the roll to go on`,
    };
  return {
    kind: 'wait',
    since: start,
    blocked: `${phase} hook(s) ${names} on node ${nodeName} (waiting ${Math.round((now - start) / 1000)}s of ${Math.round(timeoutMs / 1000)}s)`,
  };
}
