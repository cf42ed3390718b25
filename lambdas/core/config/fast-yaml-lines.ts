/**
 * The lines of a text as fast-yaml.ts reads them: each line and its indentation, a cursor, and what is decided line by
 * line (blank and comment lines, document markers, literal block scalars, comments after a value).
 */
import { notFast } from './fast-yaml-scalars';

export class LineCursor {
  protected readonly lines: string[];
  protected readonly indents: number[];
  protected i = 0;

  constructor(text: string) {
    this.lines = text.split('\n');
    if (this.lines.at(-1) === '') this.lines.pop(); // the text's last line break ends a line, it starts none
    this.indents = this.lines.map(indentOf);
  }

  /** A literal block scalar (`|`, `|-`, `|+`); folded ones and indentation indicators are left to js-yaml. */
  protected blockScalar(header: string, indent: number): string {
    if (!/^\|[-+]?$/.test(header)) notFast();
    const chomp = header[1];
    this.i++;
    const lines: string[] = [];
    let contentIndent = -1;
    for (; this.i < this.lines.length; this.i++) {
      const line = this.lines[this.i];
      const lineIndent = this.indents[this.i];
      if (lineIndent === line.length) {
        if (contentIndent >= 0 && line.length > contentIndent) lines.push(line.slice(contentIndent));
        else if (contentIndent < 0 && line.length > 0)
          notFast(); // spaces before the first line: js-yaml's rules
        else lines.push('');
        continue;
      }
      if (contentIndent < 0) {
        if (lineIndent <= indent) break;
        contentIndent = lineIndent;
      }
      if (lineIndent < contentIndent) break;
      lines.push(line.slice(contentIndent));
    }
    if (contentIndent < 0) notFast();
    let end = lines.length;
    while (end > 0 && lines[end - 1] === '') end--;
    const body = lines.slice(0, end).join('\n');
    if (chomp === '-') return body;
    if (chomp === '+')
      return `${body}\n${lines
        .slice(end)
        .map(() => '\n')
        .join('')}`;
    return body === '' ? '' : `${body}\n`;
  }

  /** A line indented more than `indent` after a one-line value would continue it: js-yaml's business. */
  protected noContinuation(indent: number): void {
    const next = this.nextContent();
    if (next !== undefined && this.indents[next] > indent && !this.atDocumentMarker(next)) notFast();
  }

  protected noLessIndentedItem(indent: number): void {
    const next = this.nextContent();
    if (next === undefined || this.indents[next] >= indent) return;
    const content = this.lines[next].slice(this.indents[next]);
    if (content === '-' || content.startsWith('- ')) notFast();
  }

  protected nextContent(): number | undefined {
    this.skipBlank();
    return this.i < this.lines.length ? this.i : undefined;
  }

  /** Blank lines and comment lines; a tab where indentation is read is js-yaml's business. */
  protected skipBlank(): void {
    for (; this.i < this.lines.length; this.i++) {
      const line = this.lines[this.i];
      const indent = this.indents[this.i];
      if (line[indent] === '\t') notFast();
      if (indent < line.length && line[indent] !== '#') return;
    }
  }

  protected atDocumentMarker(at = this.i): boolean {
    const line = this.lines[at];
    return (
      this.indents[at] === 0 && (line.startsWith('---') || line.startsWith('...')) && /^(---|\.\.\.)(\s|$)/.test(line)
    );
  }
}

function indentOf(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 32) i++;
  return i;
}

/** Whether `line` from `from` on closes a single-quoted scalar (a `'` that is not `''`). */
export function isClosed(line: string, from: number): boolean {
  for (let i = line.indexOf("'", from); i >= 0; i = line.indexOf("'", i + 2)) if (line[i + 1] !== "'") return true;
  return false;
}

/** The lines of a quoted scalar folded: spaces around a break dropped, a break a space, a blank line a break. */
export function fold(lines: readonly string[]): string {
  let text = lines[0].replace(/[ \t]+$/, '');
  let breaks = 0;
  for (let i = 1; i < lines.length; i++) {
    const last = i === lines.length - 1;
    const line = last ? lines[i].replace(/^[ \t]+/, '') : lines[i].trim();
    if (!last && line === '') {
      breaks++;
      continue;
    }
    text += (breaks ? '\n'.repeat(breaks) : ' ') + line;
    breaks = 0;
  }
  return text;
}

/** One line of a plain scalar: no `: ` (a mapping), no tab, and it must start as a plain scalar may. */
export function plainLine(text: string, start: RegExp): string {
  const line = stripComment(text);
  if (!start.test(line) || line.includes(': ') || line.endsWith(':') || line.includes('\t')) notFast();
  return line;
}

/** `text` without a trailing comment (` #…`) and trailing spaces; quotes are not looked into (a caller's business). */
export function stripComment(text: string): string {
  const hash = text.indexOf(' #');
  return (hash < 0 ? text : text.slice(0, hash)).trimEnd();
}
