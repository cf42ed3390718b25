/**
 * js-yaml's `loadAll`, for the YAML a cluster's config renders to, line by line: block mappings and sequences, plain
 * and quoted scalars on one line, literal block scalars (`|`), one-line flow collections, comments and `---`. It gives
 * what js-yaml gives with the same schema (a test compares them on every YAML file of the repository, rendered
 * manifests and generated documents), or undefined, and then the caller asks js-yaml: for every other form (folded
 * and multi-line scalars, anchors, tags, multi-line flow collections, tabs in indentation, `\r`, repeated keys…) and
 * for every error, so those behave exactly as before.
 *
 * Why: js-yaml reads a document character by character in JavaScript; in a process that lives a second most of that
 * code runs before V8 compiles it, and a rendered manifest or a registry with long certificates took milliseconds.
 * Here each line is cut with native string searches and regular expressions.
 */
import type yaml from 'js-yaml';
import {
  doubleQuoted,
  flowCollection,
  implicitTypes,
  keyOf,
  notFast,
  resolvePlain,
  singleQuoted,
} from './fast-yaml-scalars';
import { LineCursor, fold, isClosed, plainLine, stripComment } from './fast-yaml-lines';

type Types = ReturnType<typeof implicitTypes>;

/** js-yaml's `loadAll(text, undefined, { schema })`, or undefined when js-yaml must read `text`. */
export function fastLoadAll(text: string, schema: yaml.Schema): unknown[] | undefined {
  if (NOT_PLAIN_TEXT.test(text)) return undefined;
  try {
    return new BlockParser(text, implicitTypes(schema)).documents();
  } catch {
    // NOT_FAST, or anything this reader did not foresee (a stack overflow, a code point out of range): js-yaml's
    // answer, and its error, whatever they are.
    return undefined;
  }
}

/**
 * Characters js-yaml treats apart: `\r` (a line break too), a byte-order mark (stripped at the start), control
 * characters and lone surrogates (refused in scalars, allowed in comments), NEL and the non-characters; and the
 * spaces other than ` ` and tab, which are text to YAML but white space to JavaScript's `\s` and `trim`, so that here
 * `\s` is YAML's white space.
 */
const NOT_PLAIN_TEXT =
  /[\x00-\x08\x0b-\x1f\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;

/** A key, `: ` or `:` at the end, then the rest: plain keys start like plain scalars and hold no `: ` or ` #`. */
const PLAIN_KEY = /^([^\s\-?:,[\]{}#&*!|>'"%@`](?:[^:#]|:(?=\S)|(?<=\S)#)*?) *:(?: +|$)/;
const QUOTED_KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*') *:(?: +|$)/;
const DOCUMENT_START = /^---(?:[ ]+#.*|[ ]*)$/;
const PLAIN_START = /^(?:[^\s\-?:,[\]{}#&*!|>'"%@`]|[-?:](?=[^\s,[\]{}]))/;

class BlockParser extends LineCursor {
  constructor(
    text: string,
    private readonly types: Types,
  ) {
    super(text);
  }

  /** The documents: an explicit one (`---`) with nothing in it is null; a text of comments only is js-yaml's business. */
  documents(): unknown[] {
    // `---` or `...` at the start of a line ends a document unless more follows without a space: js-yaml's business.
    for (const line of this.lines)
      if ((line.startsWith('---') || line.startsWith('...')) && !DOCUMENT_START.test(line)) notFast();
    const documents: unknown[] = [];
    let open = false;
    for (;;) {
      this.skipBlank();
      if (this.i >= this.lines.length) {
        if (open) documents.push(null);
        else if (documents.length === 0) notFast(); // comments or blanks only: js-yaml's rules
        return documents;
      }
      const line = this.lines[this.i];
      if (line.startsWith('---') && DOCUMENT_START.test(line)) {
        if (open) documents.push(null); // `---` with nothing before the next one
        open = true;
        this.i++;
        continue;
      }
      if (line.startsWith('...') || line.startsWith('%')) notFast();
      documents.push(this.node(0));
      open = false;
      this.skipBlank();
      if (this.i < this.lines.length && !this.lines[this.i].startsWith('---')) notFast();
    }
  }

  /** The block node starting at the next content line, if it is indented at least `min`; else null. */
  private node(min: number): unknown {
    this.skipBlank();
    if (this.i >= this.lines.length || this.indents[this.i] < min || this.atDocumentMarker()) return null;
    const indent = this.indents[this.i];
    const content = this.lines[this.i].slice(indent);
    if (content === '-' || content.startsWith('- ')) return this.sequence(indent);
    if (PLAIN_KEY.test(content) || QUOTED_KEY.test(content)) return this.mapping(indent);
    return this.scalar(content, indent - 1);
  }

  private mapping(indent: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (;;) {
      this.skipBlank();
      if (this.i >= this.lines.length || this.indents[this.i] < indent || this.atDocumentMarker()) return result;
      if (this.indents[this.i] > indent) notFast();
      const content = this.lines[this.i].slice(indent);
      const match = QUOTED_KEY.exec(content) ?? PLAIN_KEY.exec(content);
      if (!match || match[1].length > 1024 || match[1].includes('\t')) return notFast();
      const key = keyOf(this.key(match[1]));
      if (Object.prototype.hasOwnProperty.call(result, key)) notFast();
      result[key] = this.value(content.slice(match[0].length), indent, indent + match[0].length, true);
    }
  }

  private sequence(indent: number): unknown[] {
    const items: unknown[] = [];
    for (;;) {
      this.skipBlank();
      if (this.i >= this.lines.length || this.indents[this.i] !== indent || this.atDocumentMarker()) {
        if (this.i < this.lines.length && this.indents[this.i] > indent && !this.atDocumentMarker()) notFast();
        return items;
      }
      const content = this.lines[this.i].slice(indent);
      if (content !== '-' && !content.startsWith('- ')) {
        if (PLAIN_KEY.test(content) || QUOTED_KEY.test(content)) return items; // the mapping this sequence is in
        notFast();
      }
      let offset = 1;
      while (content[offset] === ' ') offset++;
      const item = this.value(content.slice(offset), indent, indent + offset, false);
      items.push(item);
      // After an empty item, js-yaml takes a `-` line indented less as this sequence's next item.
      if (item === null && stripComment(content.slice(offset)) === '') this.noLessIndentedItem(indent);
    }
  }

  /**
   * The value after `key:` or `- ` on line `i`, at column `column` (`rest` is the line from there); `indent` is the
   * key's or dash's. An item of a sequence may be a mapping or a sequence starting on its line: the line is then
   * read again as if it started at `column`.
   */
  private value(rest: string, indent: number, column: number, inMapping: boolean): unknown {
    const trimmed = stripComment(rest);
    if (trimmed === '') {
      this.i++;
      const next = this.nextContent();
      if (next === undefined) return null;
      if (this.indents[next] > indent) return this.node(indent + 1);
      const content = this.lines[next].slice(this.indents[next]);
      // A sequence may sit at its key's indentation.
      if (inMapping && this.indents[next] === indent && (content === '-' || content.startsWith('- ')))
        return this.sequence(indent);
      return null;
    }
    if (
      !inMapping &&
      (trimmed === '-' || trimmed.startsWith('- ') || PLAIN_KEY.test(trimmed) || QUOTED_KEY.test(trimmed))
    ) {
      this.lines[this.i] = ' '.repeat(column) + rest;
      this.indents[this.i] = column;
      return this.node(column);
    }
    if (trimmed[0] === '|' || trimmed[0] === '>') return this.blockScalar(trimmed, indent);
    return this.scalar(rest, indent);
  }

  /**
   * The scalar or flow collection that `text` on line `i` starts (but for a comment); a plain scalar continues on the
   * lines indented more than `parent` (folded: lines joined by a space, a blank line a line break).
   */
  private scalar(text: string, parent: number): unknown {
    const c = text[0];
    let parsed: { value: unknown; rest: string };
    if (c === "'") parsed = this.singleQuotedLines(text, parent);
    else if (c === '"' || c === '[' || c === '{') {
      const { value, end } = c === '"' ? doubleQuoted(text, 0) : flowCollection(text, 0, this.types);
      parsed = { value, rest: text.slice(end) };
    } else return resolvePlain(this.plain(text, parent), this.types);
    if (stripComment(parsed.rest) !== '') notFast();
    this.i++;
    this.noContinuation(parent);
    return parsed.value;
  }

  /**
   * `'…'` from `text` on, over as many lines as it takes (lines indented more than `parent`): a line break between
   * two lines is a space, each blank line between them a line break, and the spaces around a break go. Leaves line
   * `i` on the closing quote's line; `rest` is what follows the closing quote on it.
   */
  private singleQuotedLines(text: string, parent: number): { value: string; rest: string } {
    if (isClosed(text, 1)) {
      const { value, end } = singleQuoted(text, 0);
      return { value, rest: text.slice(end) };
    }
    const parts = [text.slice(1)];
    for (;;) {
      this.i++;
      if (this.i >= this.lines.length || this.atDocumentMarker()) notFast();
      const line = this.lines[this.i];
      const indent = this.indents[this.i];
      if (indent < line.length && (indent <= parent || line[indent] === '\t')) notFast();
      if (!isClosed(line, 0)) {
        parts.push(line);
        continue;
      }
      const { value, end } = singleQuoted(`'${line}`, 0);
      const raw = parts.map((part) => part.replaceAll("''", "'"));
      return { value: fold([...raw, value]), rest: line.slice(end - 1) };
    }
  }

  private plain(first: string, parent: number): string {
    let text = plainLine(first, PLAIN_START);
    this.i++;
    if (first.includes(' #')) {
      this.noContinuation(parent); // a comment ends the scalar: a line after it is js-yaml's business
      return text;
    }
    let breaks = 0;
    for (; this.i < this.lines.length; this.i++) {
      const line = this.lines[this.i];
      const indent = this.indents[this.i];
      if (indent === line.length) {
        breaks++;
        continue;
      }
      if (indent <= parent || this.atDocumentMarker()) break;
      if (line[indent] === '#' || line[indent] === '\t') notFast();
      const more = plainLine(line.slice(indent), /^/);
      if (more.length !== line.length - indent - (line.length - line.trimEnd().length)) notFast(); // a comment
      text += breaks ? '\n'.repeat(breaks) : ' ';
      text += more;
      breaks = 0;
    }
    this.i -= breaks;
    return text;
  }

  private key(text: string): unknown {
    if (text[0] === '"') return doubleQuoted(text, 0).value;
    if (text[0] === "'") return singleQuoted(text, 0).value;
    return resolvePlain(text.trimEnd(), this.types);
  }
}
