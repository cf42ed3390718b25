import type { ObjectRef } from '../../ports/kube-cluster';
import type { ClusterPlan } from './plan-document';
import { hasChanges } from './plan-document';
import { formatRehearsal } from '../rehearsal/format-rehearsal';

function refText(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

function value(v: unknown): string {
  const text = JSON.stringify(v) ?? 'undefined';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The plan of one cluster as text, as `clm plan` prints it. */
export function formatPlan(plan: ClusterPlan): string {
  const lines = [`${plan.clusterId}: ${plan.currentVersion ?? '(never provisioned)'} -> ${plan.targetVersion}`];
  if (plan.layers) lines.push(`  ${plan.layers.summary}`);
  if (plan.layers?.kubernetes) lines.push(`  ${plan.layers.kubernetes}`);
  if (!hasChanges(plan) && !plan.configItems.length) lines.push('  no changes');
  for (const c of plan.configItems)
    lines.push(`  config item ${c.item}: ${c.before ?? '(unset)'} -> ${c.after ?? '(unset)'}`);
  for (const s of plan.stacks) {
    lines.push(`  stack ${s.name} (${s.kind}): ${s.action === 'no-changes' ? 'no changes' : s.action}`);
    for (const c of s.changes)
      lines.push(`    ${c.action} ${c.logicalId} (${c.resourceType})${c.replacement === 'True' ? ' REPLACED' : ''}`);
  }
  for (const o of plan.objects.filter((object) => object.action !== 'unchanged')) {
    lines.push(`  ${o.action} ${refText(o.ref)} (${o.file})`);
    for (const f of o.fields)
      lines.push(`    ${f.op} ${f.path}${f.op === 'add' ? '' : `: ${value(f.before)}`} -> ${value(f.after)}`);
  }
  for (const d of plan.deletions) lines.push(`  delete ${refText(d.ref)} (${d.reason})`);
  for (const p of plan.pools.filter((pool) => pool.nodes > 0))
    lines.push(
      `  roll ${p.pool}: ${p.nodes} node(s) in ${p.batches} batch(es), about ${p.estimatedMinutes} min${p.heldUntil ? `, not before ${new Date(p.heldUntil.at).toISOString()} (disruption budget ${p.heldUntil.by})` : ''}`,
    );
  for (const note of plan.notes) lines.push(`  note: ${note}`);
  for (const problem of plan.problems) lines.push(`  problem: ${problem}`);
  if (plan.rehearsal) lines.push(...formatRehearsal(plan.rehearsal).map((line) => `  ${line}`));
  return `${lines.join('\n')}\n`;
}
