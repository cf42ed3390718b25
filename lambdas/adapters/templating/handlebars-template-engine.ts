/**
 * The template engine: handlebars syntax with CLM's helper names (helpers.ts), strict, unescaped.
 *
 * - Templates are parsed into handlebars' AST by handlebars-parser.ts (handlebars' grammar and whitespace control,
 *   without its slower jison parser) and evaluated by template-interpreter.ts; handlebars' JavaScript code generator
 *   is not used, for speed (it cost ~1.5 s of CPU for 300 manifests; parsing plus interpreting costs a fraction).
 * - Parsed templates are cached by content, per engine (a fresh engine is a cold start).
 * - Missing keys fail with the template path, the line and the whole key path; helper arguments are strict
 *   too, as Go's `missingkey=error` is. `index` on a missing key gives "".
 * - Helpers that need AWS (`amiID`, `instanceType*Quantity`) go through the CloudLookups port. Rendering is
 *   synchronous, so a render runs in passes: a pass records the lookups it lacks (the helpers return
 *   placeholders), the engine awaits them, and renders again; at most MAX_PASSES passes.
 * - A template whose first line is the Go-semantics pragma (core/render/go-semantics-pragma.ts; `clm migrate`
 *   writes it) is parsed without standalone-line stripping and interpreted with Go's printing and truth, so a
 *   converted CLM template renders byte for byte as Go rendered it.
 */
import type { CloudLookups, RenderRequest, TemplateEngine, TemplateFile } from '../../ports/template-engine';
import { TemplateRenderError } from '../../shared/errors';
import { CloudLookupCache } from './cloud-lookup-cache';
import type { LookupRound } from './cloud-lookup-cache';
import { clmHelper } from './helpers';
import type { RenderScope } from './render-scope';
import { syntaxError } from './template-errors';
import { parseHandlebars } from './handlebars-parser';
import { interpret } from './template-interpreter';
import { hasGoSemanticsPragma } from '../../core/render/go-semantics-pragma';
import type { Program } from './template-interpreter';

/** Lookups found in pass n may reveal others in pass n+1 (a branch taken on a looked-up value). */
const MAX_PASSES = 4;
/** Parsed templates kept per engine; beyond this the cache starts over (a long-lived engine). */
const MAX_CACHED_TEMPLATES = 5000;

export interface HandlebarsTemplateEngineOptions {
  /** Needed by `amiID` and `instanceType*Quantity`; without it those helpers fail with a clear message. */
  readonly lookups?: CloudLookups;
}

export class HandlebarsTemplateEngine implements TemplateEngine {
  private readonly parsedTemplates = new Map<string, Program>();
  private readonly lookups: CloudLookupCache;

  constructor(options: HandlebarsTemplateEngineOptions = {}) {
    this.lookups = new CloudLookupCache(options.lookups);
  }

  async render(request: RenderRequest): Promise<string> {
    const round: LookupRound = { pending: new Map(), failures: new Map() };
    for (let pass = 1; ; pass++) {
      const scope = this.scope(request, round);
      let output = '';
      let failure: { error: unknown } | undefined;
      try {
        output = this.renderNested(request.template, scope);
      } catch (error) {
        failure = { error };
      }
      // A failure while lookups were outstanding may come from a placeholder; retry once they are known.
      if (round.pending.size === 0) {
        if (failure) throw failure.error;
        return output;
      }
      if (pass === MAX_PASSES) {
        const labels = [...round.pending.values()].map((r) => r.label).join(', ');
        throw new TemplateRenderError(`lookups still unresolved after ${MAX_PASSES} passes: ${labels}`, {
          location: { file: request.template.path },
        });
      }
      await this.lookups.settle(round);
    }
  }

  private scope(request: RenderRequest, round: LookupRound): RenderScope {
    return {
      file: request.template,
      request,
      computingManifestHash: false,
      round,
      lookups: this.lookups,
      renderNested: (file, scope) => this.renderNested(file, scope),
    };
  }

  private renderNested(file: TemplateFile, scope: RenderScope): string {
    // Plain text (large CRDs, say) needs no parsing: without "{{" handlebars outputs it unchanged.
    if (!file.content.includes('{{')) return file.content;
    const goSemantics = hasGoSemanticsPragma(file.content);
    return interpret(this.parse(file, goSemantics), scope.request.context, {
      file: file.path,
      helper: (name) => clmHelper(name, scope),
      goSemantics,
    });
  }

  private parse(file: TemplateFile, goSemantics: boolean): Program {
    // Keyed by the content itself: V8 hashes a string once, where a SHA-256 per lookup cost a crypto call.
    const key = file.content;
    const cached = this.parsedTemplates.get(key);
    if (cached) return cached;
    let program: Program;
    try {
      program = goSemantics
        ? withoutPragmaLine(parseHandlebars(file.content, { ignoreStandalone: true }))
        : parseHandlebars(file.content);
    } catch (error) {
      throw syntaxError(error, file.path);
    }
    if (this.parsedTemplates.size >= MAX_CACHED_TEMPLATES) this.parsedTemplates.clear();
    this.parsedTemplates.set(key, program);
    return program;
  }
}

/** Under Go semantics standalone lines are kept, so the pragma comment's own newline is dropped here. */
function withoutPragmaLine(program: Program): Program {
  const [pragma, next, ...rest] = program.body;
  if (next?.type !== 'ContentStatement') return program;
  const content = next as hbs.AST.ContentStatement;
  if (!content.value.startsWith('\n')) return program;
  const value = content.value.slice(1);
  const trimmed: hbs.AST.ContentStatement = { ...content, value };
  return { ...program, body: [pragma, ...(value ? [trimmed] : []), ...rest] };
}
