import type { PdbBlockSpell } from '../model/run';
import { parseBlock } from './drain-rules';

/** Spells a pool's progress keeps (the newest). */
export const PDB_BLOCK_SPELLS = 20;

/**
 * The spells after a step that found `blocked` (its drain's blocks, as describeBlock words them): a PDB still blocking
 * keeps its open spell, one blocking anew opens a spell, and an open spell whose PDB no longer blocks ends now
 * (marked `forced` when the step forced a drain: the block ended by CLM's deadline, not by itself).
 */
export function trackPdbBlocks(
  spells: readonly PdbBlockSpell[] | undefined,
  blocked: readonly string[],
  now: number,
  step: { readonly forced?: boolean; readonly done?: boolean } = {},
): PdbBlockSpell[] {
  const done = step.done === true;
  const forced = step.forced === true;
  const blocking = new Set(blocked.flatMap((b) => parseBlock(b).pdb ?? []));
  const open = new Set<string>();
  const next = (spells ?? []).map((spell) => {
    if (spell.endedAt !== undefined) return spell;
    if (blocking.has(spell.pdb) && !done) {
      open.add(spell.pdb);
      return spell;
    }
    return { ...spell, endedAt: now, ...(forced ? { forced } : {}) };
  });
  if (!done) for (const pdb of [...blocking].sort()) if (!open.has(pdb)) next.push({ pdb, since: now });
  return next.slice(-PDB_BLOCK_SPELLS);
}
