import type { GroupSize, PoolGroup, PreRollMark } from '../../ports/node-pool-backend';

/**
 * A roll's base — the pool's size before it — must not drift: a step that retries after its progress was lost sees
 * the pool with its own surge in it, and a new run may find a roll of an earlier run half done. So before its first
 * scale-out the roll marks each Auto Scaling group with its size then (this tag, `desired=2,min=2,max=3`), reads the
 * base back from the marks, and at the end puts the groups' bounds back and removes the marks.
 */
export const PRE_ROLL_SIZE_TAG = 'cluster-lifecycle-manager.zalando.org/pre-roll-size';

/** The tag value of a group's pre-roll size (and the pairing nodes the roll holds, when any). */
export function formatGroupSize(mark: PreRollMark): string {
  const pairing = mark.pairing ? `,pairing=${mark.pairing}` : '';
  return `desired=${mark.desired},min=${mark.min},max=${mark.max}${pairing}`;
}

/** A pre-roll size tag's value; undefined when it is not one (absent, or edited by hand into something else). */
export function parseGroupSize(value: string | undefined): PreRollMark | undefined {
  const match = /^desired=(\d+),min=(\d+),max=(\d+)(?:,pairing=(\d+))?$/.exec(value ?? '');
  if (!match) return undefined;
  const [desired, min, max, pairing] = [1, 2, 3, 4].map((i) => Number(match[i] ?? 0)) as [
    number,
    number,
    number,
    number,
  ];
  return min <= max ? { desired, min, max, ...(pairing ? { pairing } : {}) } : undefined;
}

/** A group's mark with the roll's pairing count now: its size before the roll kept, or its size now if unmarked. */
export function markWith(now: GroupSize, marked: PreRollMark | undefined, pairing?: number): PreRollMark {
  const size = marked ?? now;
  return { desired: size.desired, min: size.min, max: size.max, ...(pairing ? { pairing } : {}) };
}

/** The bounds that put a marked group back after its roll, around its desired capacity now. */
export function restoredBounds(now: GroupSize, before: GroupSize): { readonly min: number; readonly max: number } {
  return { min: Math.min(before.min, now.desired), max: Math.max(before.max, now.desired) };
}

/**
 * Nodes the roll added for same-zone pairing and holds, by the marks (an upper bound: the count is written before the
 * scale-out and lowered after a take-back); undefined when no group is marked.
 */
export function preRollPairing(groups: readonly PoolGroup[]): number | undefined {
  if (!groups.some((g) => g.preRoll)) return undefined;
  return Math.max(...groups.map((g) => g.preRoll?.pairing ?? 0));
}

/**
 * The pool's size before the roll: each group's marked size, or its size now where it carries no mark (a group is
 * marked before anything scales it, so an unmarked group was not scaled by the roll); undefined when no group is marked.
 */
export function preRollDesired(groups: readonly PoolGroup[]): number | undefined {
  if (!groups.some((g) => g.preRoll)) return undefined;
  return groups.reduce((total, g) => total + (g.preRoll ?? g).desired, 0);
}
