import * as z from '../../shared/zod';
import type { SimContext } from '../sim-context';
import type { KubeState } from '../world-state';
import { updateFields } from './field-managers';
import { objectKey, resolveKind } from './kinds';
import { metaOf } from './stored';
import type { Json } from './stored';

/**
 * Scenario incident: someone edits a live object at a simulated time (`liveEdits`), as `kubectl edit` / `kubectl
 * patch` would — a JSON merge patch sent as an update by another field manager, who then owns the fields it changed
 * (kube/field-managers.ts). The object's generation grows when anything outside its metadata changed, and its
 * controllers act on the new spec. An edit of an object that does not exist at that time changes nothing (the real
 * API server answers 404); it is noted in `world.invariants().details`.
 */
export const LiveEdit = z.strictObject({
  /** Virtual seconds after the world started. */
  atSeconds: z.number().check(z.nonnegative()),
  cluster: z.string().check(z.minLength(1)),
  /** Kind, singular, plural or `resource.version.group`, as `kubectl edit` takes it. */
  kind: z.string().check(z.minLength(1)),
  namespace: z.optional(z.string().check(z.minLength(1))),
  name: z.string().check(z.minLength(1)),
  /** The editing field manager (`kubectl edit` is `kubectl-edit`, `kubectl patch` is `kubectl-patch`). */
  manager: z._default(z.string().check(z.minLength(1)), 'kubectl-edit'),
  /** RFC 7386 merge patch: `{ spec: { replicas: 5 } }`; null removes a field. */
  patch: z.record(z.string(), z.unknown()),
});
export type LiveEdit = z.infer<typeof LiveEdit>;

/**
 * Add `added` to the world's live edits (undefined: the scenario's own, at the world's creation) and queue each at its
 * time. Worlds saved before live edits were modelled have none.
 */
export function addLiveEdits(ctx: SimContext, added?: readonly z.input<typeof LiveEdit>[]): void {
  const scenario = ctx.state.scenario;
  const edits = added ? added.map((edit) => LiveEdit.parse(edit)) : (scenario.liveEdits ?? []);
  const firstIndex = added ? (scenario.liveEdits ??= []).length : 0;
  if (added) scenario.liveEdits.push(...edits);
  edits.forEach((edit, i) => {
    const at = ctx.state.startTime + edit.atSeconds * 1000;
    ctx.schedule(Math.max(0, (at - ctx.state.now) / 1000), {
      type: 'live-edit',
      cluster: edit.cluster,
      index: firstIndex + i,
    });
  });
}

/** The live-edit event: apply edit `index` of the scenario to its object, if it exists. */
export function liveEditDue(ctx: SimContext, kube: KubeState, index: number): void {
  const edit = ctx.state.scenario.liveEdits?.[index];
  if (!edit) return;
  const info = resolveKind(kube, edit.kind);
  const namespace = info.namespaced ? (edit.namespace ?? 'default') : undefined;
  const stored = kube.objects[objectKey(info, namespace, edit.name)];
  const what = `${info.kind} ${namespace ? `${namespace}/` : ''}${edit.name}`;
  if (!stored) {
    ctx.note(`live edit ${index} (${edit.manager}) at ${ctx.iso()}: ${what} not found in ${kube.clusterId}`);
    return;
  }
  const outcome = updateFields(stored, edit.patch as Json, edit.manager, ctx.iso());
  if (!outcome.changes.length) return;
  const generation = Number(metaOf(stored.obj).generation ?? 1);
  const specChanged = outcome.changes.some((c) => !c.path.startsWith('metadata.'));
  stored.obj = { ...outcome.obj, metadata: { ...metaOf(outcome.obj), generation: generation + (specChanged ? 1 : 0) } };
  stored.managed = outcome.managed;
  ctx.dirty.add(kube.clusterId);
}
