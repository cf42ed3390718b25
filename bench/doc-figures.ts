/**
 * The figures README.md and docs/ quote from a bench run, checked against one (`npm run bench:check-docs -- FILE`,
 * FILE written by `npm run bench -- --json FILE`). A quoted figure carries a marker right after it:
 *
 *   **0.93×**<!-- bench: vs-clm "clm render / Zalando CLM, synthetic" ±0.1 -->
 *
 * the module, the start of the figure's name as the bench prints it, and how far the quote may be from the printed
 * value: `±0.1` in the figure's unit, `±10%` of the value, or `exact`. The quote is the last number before the marker
 * on its line (after the previous marker; thousands separators allowed).
 */

export interface DocumentedFigure {
  readonly file: string;
  readonly line: number;
  readonly module: string;
  readonly figure: string;
  readonly quoted: number;
  /** Digits after the quote's decimal point: half a unit of the last one is rounding, not a difference. */
  readonly decimals: number;
  readonly tolerance: { readonly absolute: number } | { readonly relative: number };
}

export interface MeasuredFigure {
  readonly module: string;
  readonly name: string;
  /** null: not measured in that run. */
  readonly value: number | null;
}

const MARKER = /<!-- bench: ([\w-]+) "([^"]+)" (exact|±([\d.]+)(%?)) -->/g;
const NUMBER = /\d[\d,]*(?:\.\d+)?/g;

/** The marked figures of one markdown file; a marker with no number before it is an error. */
export function documentedFigures(markdown: string, file: string): DocumentedFigure[] {
  const figures: DocumentedFigure[] = [];
  markdown.split('\n').forEach((text, index) => {
    let from = 0;
    for (const match of text.matchAll(MARKER)) {
      const before = text.slice(from, match.index);
      from = match.index + match[0].length;
      const numbers = before.match(NUMBER);
      if (!numbers) throw new Error(`${file}:${index + 1}: no figure before the marker ${match[0]}`);
      const [, module, figure, , amount, percent] = match;
      figures.push({
        file,
        line: index + 1,
        module,
        figure,
        quoted: Number(numbers[numbers.length - 1].replaceAll(',', '')),
        decimals: numbers[numbers.length - 1].split('.')[1]?.length ?? 0,
        tolerance:
          amount === undefined
            ? { absolute: 0 }
            : percent
              ? { relative: Number(amount) / 100 }
              : { absolute: Number(amount) },
      });
    }
  });
  return figures;
}

export interface FigureCheck {
  /** Quotes that are not what the run printed, or name a figure the run's module does not print. */
  readonly wrong: string[];
  /** Quotes from modules the run did not include. */
  readonly unchecked: DocumentedFigure[];
  readonly checked: number;
}

export function checkFigures(
  documented: readonly DocumentedFigure[],
  measured: readonly MeasuredFigure[],
): FigureCheck {
  const modules = new Set(measured.map((m) => m.module));
  const wrong: string[] = [];
  const unchecked: DocumentedFigure[] = [];
  let checked = 0;
  for (const doc of documented) {
    const where = `${doc.file}:${doc.line}: ${doc.module} "${doc.figure}"`;
    if (!modules.has(doc.module)) {
      unchecked.push(doc);
      continue;
    }
    const row = measured.find((m) => m.module === doc.module && m.name.startsWith(doc.figure));
    if (!row) wrong.push(`${where}: the run printed no such figure`);
    else if (row.value === null || !Number.isFinite(row.value)) wrong.push(`${where}: not measured in the run`);
    else {
      checked++;
      const allowed =
        'absolute' in doc.tolerance ? doc.tolerance.absolute : Math.abs(row.value) * doc.tolerance.relative;
      if (Math.abs(doc.quoted - row.value) > allowed + 0.5 * 10 ** -doc.decimals)
        wrong.push(`${where}: quoted ${doc.quoted}, the run printed ${row.value}`);
    }
  }
  return { wrong, unchecked, checked };
}
