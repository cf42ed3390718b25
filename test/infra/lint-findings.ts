// Reads cfn-lint's and checkov's JSON reports (test/infra/lint-templates.sh) and fails on every finding that
// test/infra/lint-justifications.ts does not explain. Run through lint-findings-cli.ts.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LINT_JUSTIFICATIONS, unexplained } from './lint-justifications';
import type { Finding } from './lint-justifications';

interface CfnLintMatch {
  readonly Filename: string;
  readonly Message: string;
  readonly Location: { readonly Path: readonly (string | number)[]; readonly Start: { readonly LineNumber: number } };
  readonly Rule: { readonly Id: string };
}

interface CheckovReport {
  readonly results: {
    readonly failed_checks: readonly {
      check_id: string;
      resource: string;
      file_path: string;
      check_name: string;
    }[];
  };
}

const templates = new Map<string, { Resources?: Record<string, { Type: string }> }>();

function resourceType(file: string, logicalId: string): string {
  let template = templates.get(file);
  if (!template) templates.set(file, (template = JSON.parse(readFileSync(resolve(file), 'utf8'))));
  return template?.Resources?.[logicalId]?.Type ?? 'Template';
}

export function cfnLintFindings(matches: readonly CfnLintMatch[]): Finding[] {
  return matches.map((m) => {
    const [section, logicalId] = m.Location.Path;
    const id = section === 'Resources' ? String(logicalId) : String(section ?? '');
    return {
      tool: 'cfn-lint',
      rule: m.Rule.Id,
      resource: section === 'Resources' ? `${resourceType(m.Filename, id)}.${id}` : id,
      file: `${m.Filename}:${m.Location.Start.LineNumber}`,
      message: m.Message,
    };
  });
}

export function checkovFindings(reports: CheckovReport | readonly CheckovReport[]): Finding[] {
  return ([] as CheckovReport[]).concat(reports as CheckovReport[]).flatMap((report) =>
    report.results.failed_checks.map((c) => ({
      tool: 'checkov' as const,
      rule: c.check_id,
      resource: c.resource,
      file: c.file_path,
      message: c.check_name,
    })),
  );
}

export function main(args: readonly string[]): number {
  const [cfnLintFile, checkovFile] = args;
  if (!cfnLintFile || !checkovFile) {
    console.error('usage: lint-findings.ts CFN_LINT.json CHECKOV.json');
    return 2;
  }
  const findings = [
    ...cfnLintFindings(JSON.parse(readFileSync(cfnLintFile, 'utf8') || '[]')),
    ...checkovFindings(JSON.parse(readFileSync(checkovFile, 'utf8'))),
  ];
  const left = unexplained(findings);
  const used = new Set(
    findings.flatMap((f) => LINT_JUSTIFICATIONS.filter((j) => j.tool === f.tool && j.rule === f.rule)),
  );
  console.log(
    `lint-findings: ${findings.length} finding(s), ${findings.length - left.length} justified (${used.size} of ${LINT_JUSTIFICATIONS.length} justifications used), ${left.length} unexplained`,
  );
  for (const f of left) console.log(`  ${f.tool} ${f.rule} ${f.resource} (${f.file}): ${f.message}`);
  return left.length === 0 ? 0 : 1;
}
