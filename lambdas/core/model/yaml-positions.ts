import yaml from 'js-yaml';
import { ValidationError } from '../../shared/errors';

/** A path into a parsed document: mapping keys and sequence indexes, e.g. `['clusters', 0, 'node_pools', 1]`. */
export type DocPath = readonly (string | number)[];

export interface PositionedYaml {
  readonly value: unknown;
  /** 1-based line of the node at `path` (a mapping entry: its key's line; a sequence item: where it starts), or of its nearest ancestor. */
  lineOf(path: DocPath): number | undefined;
}

interface Frame {
  readonly start: number;
  readonly children: ComposedNode[];
}

interface ComposedNode {
  readonly result: unknown;
  readonly line: number;
}

/**
 * Parse YAML with js-yaml's CORE schema (no timestamps, no `!!binary`: `created_at` stays a string, as in
 * JSON). Syntax errors become a ValidationError naming `file:line:column`.
 *
 * Positions are only needed for messages, so they are computed on the first `lineOf` call, by parsing
 * again with js-yaml's `listener` hook (it reports the opening and closing of every node) and recording
 * where every mapping, sequence item and mapping key starts. A valid file pays for one plain parse only.
 */
export function loadYamlWithPositions(text: string, file: string): PositionedYaml {
  const value = load(text, file);
  let positions: ((path: DocPath) => number | undefined) | undefined;
  return {
    value,
    lineOf: (path) => {
      positions ??= trackPositions(text, file);
      return positions(path);
    },
  };
}

function load(text: string, file: string, listener?: unknown): unknown {
  try {
    return yaml.load(text, {
      filename: file,
      schema: yaml.CORE_SCHEMA,
      ...(listener ? { listener } : {}),
    } as yaml.LoadOptions);
  } catch (error) {
    if (error instanceof yaml.YAMLException) {
      const line = error.mark ? error.mark.line + 1 : undefined;
      const column = error.mark ? error.mark.column + 1 : undefined;
      const where = line ? `${file}:${line}:${column}` : file;
      throw new ValidationError(`${file}: not valid YAML`, { cause: error, issues: [`${where}: ${error.reason}`] });
    }
    if (error instanceof RangeError) throw tooDeep(text, file, error);
    throw error;
  }
}

/** Nesting of `[` and `{` beyond which a place is named as the culprit when js-yaml runs out of stack. */
export const MAX_FLOW_DEPTH = 1000;

/**
 * js-yaml parses nested collections by recursion, so a garbage line of thousands of `[` or `{` exhausts the stack
 * ("Maximum call stack size exceeded", which names nothing). Name the file and the line where the nesting goes deeper
 * than MAX_FLOW_DEPTH (a rough scan: quotes are skipped), or else the file's longest line.
 */
function tooDeep(text: string, file: string, cause: RangeError): ValidationError {
  let line = 1;
  let lineStart = 0;
  let depth = 0;
  let quote = '';
  let longest = { line: 1, length: 0 };
  for (let i = 0; i <= text.length; i += 1) {
    const c = text[i];
    if (c === '\n' || i === text.length) {
      if (i - lineStart > longest.length) longest = { line, length: i - lineStart };
      line += 1;
      lineStart = i + 1;
      quote = '';
      continue;
    }
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') depth += 1;
    else if ((c === ']' || c === '}') && depth > 0) depth -= 1;
    if (depth > MAX_FLOW_DEPTH) {
      const end = text.indexOf('\n', i);
      const length = (end < 0 ? text.length : end) - lineStart;
      return new ValidationError(`${file}: not valid YAML`, {
        cause,
        issues: [
          `${file}:${line}:${i - lineStart + 1}: lists or mappings nested more than ${MAX_FLOW_DEPTH} deep, too deep to parse (the line is ${length} characters long)`,
        ],
      });
    }
  }
  return new ValidationError(`${file}: not valid YAML`, {
    cause,
    issues: [
      `${file}: nested too deeply to parse; its longest line is line ${longest.line} (${longest.length} characters)`,
    ],
  });
}

function trackPositions(text: string, file: string): (path: DocPath) => number | undefined {
  const lineAt = lineLocator(text);
  const nodeLines = new WeakMap<object, number>();
  const keyLines = new WeakMap<object, Map<string, number>>();
  const stack: Frame[] = [];

  const listener = (
    event: 'open' | 'close',
    state: { position: number; result: unknown; kind: string | null },
  ): void => {
    if (event === 'open') {
      stack.push({ start: state.position, children: [] });
      return;
    }
    const frame = stack.pop();
    if (!frame) return;
    const node: ComposedNode = { result: state.result, line: lineAt(frame.start) };
    if (node.result !== null && typeof node.result === 'object') {
      if (!nodeLines.has(node.result)) nodeLines.set(node.result, node.line);
      if (state.kind === 'mapping' && !keyLines.has(node.result)) {
        const keys = recordKeyLines(node.result as Record<string, unknown>, frame.children);
        if (keys.size > 0) keyLines.set(node.result, keys);
      } else if (
        state.kind === 'sequence' &&
        Array.isArray(node.result) &&
        frame.children.length === node.result.length
      ) {
        keyLines.set(node.result, new Map(frame.children.map((child, index) => [String(index), child.line])));
      }
    }
    stack.at(-1)?.children.push(node);
  };

  const value = load(text, file, listener);

  return (path: DocPath): number | undefined => {
    let best: number | undefined = isObject(value) ? nodeLines.get(value) : undefined;
    let current: unknown = value;
    for (const segment of path) {
      if (!isObject(current)) break;
      const keyLine = keyLines.get(current)?.get(String(segment));
      if (keyLine !== undefined) best = keyLine;
      const next: unknown = (current as Record<string | number, unknown>)[segment];
      if (next === undefined) break;
      if (isObject(next)) {
        const nodeLine = nodeLines.get(next);
        // A sequence item's own line; a mapping value's key line is already the better answer.
        if (nodeLine !== undefined && (Array.isArray(current) || keyLine === undefined)) best = nodeLine;
      }
      current = next;
    }
    return best;
  };
}

/**
 * A block mapping composes its children as key, value, key, value…; pair them up and keep the line of each
 * key that really is a key of the resulting object (a flow mapping reports itself differently; then the
 * mapping's own line is used).
 */
function recordKeyLines(mapping: Record<string, unknown>, children: readonly ComposedNode[]): Map<string, number> {
  const lines = new Map<string, number>();
  for (let i = 0; i < children.length; i += 2) {
    const key = children[i].result;
    if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean') continue;
    const name = String(key);
    if (Object.prototype.hasOwnProperty.call(mapping, name) && !lines.has(name)) lines.set(name, children[i].line);
  }
  return lines;
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}

/** The 1-based line where a node js-yaml opened at `position` really starts (after blanks and comments). */
export function lineLocator(text: string): (position: number) => number {
  const lineStarts = computeLineStarts(text);
  return (position) => lineOfOffset(lineStarts, firstContent(text, position));
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function lineOfOffset(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

/** Where a node opened at `position` really starts: after blanks, line breaks and comments. */
function firstContent(text: string, position: number): number {
  let i = position;
  for (;;) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
    if (text[i] !== '#') return Math.min(i, text.length);
    while (i < text.length && text[i] !== '\n') i++;
  }
}
