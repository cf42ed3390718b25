import type { QuotaLimit } from './quota-limits';
import type { Rehearsal, Spread } from './rehearsal-report';

/** `12m30s` */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return h ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${rest ? `${String(rest).padStart(2, '0')}s` : ''}`;
}

function range(spread: Spread): string {
  return spread.p90 === spread.p50 ? duration(spread.p50) : `${duration(spread.p50)} (p90 ${duration(spread.p90)})`;
}

/** `vCPU quota L-1216C47A (Running On-Demand Standard …): surge needs 24 vCPU; headroom 16 of limit 640: EXCEEDS` */
export function quotaLine(q: QuotaLimit): string {
  const head = `vCPU quota ${q.code} (${q.name}): surge needs ${q.needed} vCPU`;
  if (q.fits === undefined)
    return `${head}; limit ${q.limit === undefined ? 'unknown' : `${q.limit}, use unknown`} (${q.unknown})`;
  return `${head}; headroom ${q.headroom} of limit ${q.limit} (${q.inUse} in use): ${q.fits ? 'fits' : 'EXCEEDS'}`;
}

/** One line: what an approval shows beside the plan. */
export function rehearsalSummary(r: Rehearsal): string {
  const parts = [`rehearsed ${r.runs}x: about ${range(r.durationSeconds)}`];
  if (r.pdbBlocks.length)
    parts.push(`${r.pdbBlocks.length} PDB(s) block (longest ${duration(r.pdbBlocks[0]!.seconds.p50)})`);
  if (r.forcedDrains.length) parts.push(`${r.forcedDrains.length} pod(s) forced`);
  if (r.pending.length) parts.push(`${r.pending.length} pod(s) Pending`);
  const over = (r.surge.limits ?? []).filter((q) => q.fits === false);
  if (over.length) parts.push(`surge EXCEEDS the vCPU quota ${over.map((q) => q.code).join(', ')}`);
  if (r.failedRuns) parts.push(`${r.failedRuns} run(s) failed`);
  return parts.join(', ');
}

/** The rehearsal as `clm plan --rehearse` prints it under the plan. */
export function formatRehearsal(r: Rehearsal): string[] {
  const outcome =
    r.runs > 0 && r.failedRuns === r.runs
      ? `the update did not finish in any run (stopped after ${range(r.durationSeconds)})`
      : `the update takes ${range(r.durationSeconds)}`;
  const lines = [`rehearsal (${r.runs} runs in the twin, timings varied): ${outcome}`];
  for (const p of r.pools.filter((pool) => pool.nodes > 0))
    lines.push(`  pool ${p.pool}: ${p.nodes} node(s) in ${p.batches} batch(es), ${range(p.durationSeconds)}`);
  for (const b of r.pdbBlocks)
    lines.push(
      `  PDB ${b.namespace}/${b.name} blocks ${range(b.seconds)} in ${b.runs}/${r.runs} run(s): ${b.pods.slice(0, 5).join(', ')}${b.pods.length > 5 ? ', …' : ''}`,
    );
  for (const f of r.forcedDrains) lines.push(`  forced at the drain deadline: ${f.pod} (${f.runs}/${r.runs} runs)`);
  for (const p of r.pending)
    lines.push(`  Pending ${range(p.seconds)} in ${p.runs}/${r.runs} run(s): ${p.pod} — ${p.reason}`);
  if (r.surge.instances) lines.push(`  surge: up to ${r.surge.instances} extra instance(s), ${r.surge.vcpu} vCPU`);
  for (const q of r.surge.limits ?? []) lines.push(`    ${quotaLine(q)}`);
  lines.push(`  cost: ${r.transitions} state transitions, $${r.dollars.toFixed(4)}`);
  for (const e of r.errors) lines.push(`  a run failed: ${e}`);
  for (const n of r.notes) lines.push(`  note: ${n}`);
  return lines;
}
