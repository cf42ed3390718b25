/**
 * A template whose first line is this comment is rendered with Go's text/template rules where handlebars'
 * differ (`clm migrate` writes it on every file it converts):
 * - whitespace: no standalone-line stripping (a `{{#if}}` alone on its line keeps its line's indentation and
 *   newline, as a Go action does); the pragma line itself, with its newline, is not output;
 * - truth of `#if`, `#unless`, `#with`: Go's (false, 0, "", null, and empty lists and maps are false);
 * - printing: lists print `[a b]`, maps `map[k:v]`, null `<no value>`;
 * - `#each` over a map walks its keys in sorted order.
 */
export const GO_SEMANTICS_PRAGMA = '{{!-- clm:go-template';

/** The whole first line `clm migrate` writes. */
export const GO_SEMANTICS_HEADER = `${GO_SEMANTICS_PRAGMA} (converted by clm migrate: Go whitespace, truth and printing) --}}`;

export function hasGoSemanticsPragma(content: string): boolean {
  if (!content.startsWith(GO_SEMANTICS_PRAGMA)) return false;
  const newline = content.indexOf('\n');
  const firstLine = newline < 0 ? content : content.slice(0, newline);
  return firstLine.trimEnd().endsWith('--}}');
}
