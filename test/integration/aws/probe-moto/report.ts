/**
 * The probe's findings: each check records what moto did, with a verdict, and prints it as it goes. `same` = behaves
 * like AWS as far as checked, `differs` = works but unlike AWS (adapters/tests must account for it), `broken` =
 * unusable, `info` = a fact. Ids (`cfn-05`) number the findings in the order they are made.
 */
import { writeFileSync } from 'node:fs';

export type Verdict = 'same' | 'differs' | 'broken' | 'info';
export interface Finding {
  id: string;
  area: string;
  what: string;
  verdict: Verdict;
  detail: string;
}

const findings: Finding[] = [];
let counter = 0;
export function record(area: string, what: string, verdict: Verdict, detail: string): void {
  counter += 1;
  const f = { id: `${area}-${String(counter).padStart(2, '0')}`, area, what, verdict, detail };
  findings.push(f);
  console.log(`[${verdict.padEnd(7)}] ${f.id} ${what}: ${detail}`);
}

/** Runs one probe step; a throw is recorded as `broken` (with the error) instead of aborting the probe. */
export async function step(area: string, what: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    record(area, what, 'broken', `threw ${errText(e)}`);
  }
}

export function errText(e: unknown): string {
  const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  return `${err.name ?? 'Error'} (HTTP ${err.$metadata?.httpStatusCode ?? '?'}): ${err.message ?? String(e)}`;
}

export async function expectError(fn: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await fn();
    return undefined;
  } catch (e) {
    return errText(e);
  }
}

/** Writes the findings as JSON to `jsonFile` when given, and prints how many of each verdict there are. */
export function printSummary(jsonFile: string | undefined): void {
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify(findings, null, 2));
  const counts = findings.reduce<Record<string, number>>(
    (a, f) => ({ ...a, [f.verdict]: (a[f.verdict] ?? 0) + 1 }),
    {},
  );
  console.log(`\nsummary: ${JSON.stringify(counts)}`);
}
