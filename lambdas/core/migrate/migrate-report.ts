/** The report of a `clm migrate` run: counts, then every refused file with line and reason, then the rest. */
import type { MigrationOutcome } from './migrate-file';

export interface MigrationSummary {
  readonly converted: number;
  readonly copied: number;
  readonly refused: number;
}

export function summarize(outcomes: readonly MigrationOutcome[]): MigrationSummary {
  const count = (action: MigrationOutcome['action']) => outcomes.filter((o) => o.action === action).length;
  return { converted: count('converted'), copied: count('copied'), refused: count('refused') };
}

export function summaryLine(summary: MigrationSummary): string {
  return `${summary.converted} converted, ${summary.copied} copied unchanged, ${summary.refused} refused (copied unchanged, still Go templates)`;
}

export function refusalLine(outcome: MigrationOutcome & { action: 'refused' }): string {
  return `${outcome.path}${outcome.line ? `:${outcome.line}` : ''}: ${outcome.reason}`;
}

/** Markdown, for `--report FILE`. */
export function markdownReport(outcomes: readonly MigrationOutcome[], from: string, to: string): string {
  const refused = outcomes.filter((o): o is MigrationOutcome & { action: 'refused' } => o.action === 'refused');
  const converted = outcomes.filter((o) => o.action === 'converted');
  const copied = outcomes.filter((o): o is MigrationOutcome & { action: 'copied' } => o.action === 'copied');
  const section = (title: string, lines: string[]): string[] =>
    lines.length ? [`## ${title} (${lines.length})`, '', ...lines.map((line) => `- ${line}`), ''] : [];
  return [
    '# clm migrate report',
    '',
    `From \`${from}\` to \`${to}\`: ${summaryLine(summarize(outcomes))}.`,
    '',
    ...section(
      'Refused: left as Go templates, convert by hand',
      refused.map((o) => `\`${o.path}${o.line ? `:${o.line}` : ''}\`: ${o.reason}`),
    ),
    ...section(
      'Converted',
      converted.map((o) => `\`${o.path}\``),
    ),
    ...section(
      'Copied unchanged',
      copied.map((o) => `\`${o.path}\` (${o.reason})`),
    ),
  ].join('\n');
}

/** JSON, for `--report FILE.json`. */
export function jsonReport(outcomes: readonly MigrationOutcome[], from: string, to: string): string {
  return `${JSON.stringify(
    {
      from,
      to,
      summary: summarize(outcomes),
      files: outcomes.map((o) => (o.action === 'converted' ? { path: o.path, action: o.action } : o)),
    },
    null,
    2,
  )}\n`;
}
