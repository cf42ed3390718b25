/**
 * The template engine: handlebars with CLM's helper names (helpers.ts), in strict mode, unescaped.
 *
 * - One isolated handlebars instance per engine; compiled templates are cached by content hash.
 * - Missing keys fail with the template path, the line and the whole key path (template-errors.ts); helper
 *   arguments are strict too, as Go's `missingkey=error` is. `index` on a missing key gives "".
 * - Helpers that need AWS (`amiID`, `instanceType*Quantity`) go through the CloudLookups port. Handlebars is
 *   synchronous, so a render runs in passes: a pass records the lookups it lacks (the helpers return
 *   placeholders), the engine awaits them, and renders again; at most MAX_PASSES passes.
 */
import { createHash } from 'node:crypto';
import Handlebars from 'handlebars';
import type { CloudLookups, RenderRequest, TemplateEngine, TemplateFile } from '../../ports/template-engine';
import { TemplateRenderError } from '../../shared/errors';
import { CloudLookupCache } from './cloud-lookup-cache';
import type { LookupRound } from './cloud-lookup-cache';
import { registerClmHelpers } from './helpers';
import { SCOPE_KEY } from './render-scope';
import type { RenderScope } from './render-scope';
import { makeArgumentsStrict } from './template-ast';
import type { Program } from './template-ast';
import { runtimeError, syntaxError } from './template-errors';

/** Lookups found in pass n may reveal others in pass n+1 (a branch taken on a looked-up value). */
const MAX_PASSES = 4;
/** Compiled templates kept per engine; beyond this the cache starts over (a long-lived Lambda container). */
const MAX_CACHED_TEMPLATES = 5000;

interface CompiledTemplate {
  readonly program: Program;
  readonly run: HandlebarsTemplateDelegate;
}

export interface HandlebarsTemplateEngineOptions {
  /** Needed by `amiID` and `instanceType*Quantity`; without it those helpers fail with a clear message. */
  readonly lookups?: CloudLookups;
}

export class HandlebarsTemplateEngine implements TemplateEngine {
  private readonly handlebars = Handlebars.create();
  private readonly compiled = new Map<string, CompiledTemplate>();
  private readonly lookups: CloudLookupCache;

  constructor(options: HandlebarsTemplateEngineOptions = {}) {
    this.lookups = new CloudLookupCache(options.lookups);
    registerClmHelpers(this.handlebars);
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
        throw new TemplateRenderError(`lookups still unresolved after ${MAX_PASSES} passes: ${labels}`, { location: { file: request.template.path } });
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
    const template = this.compile(file);
    try {
      return template.run(scope.request.context, { data: { [SCOPE_KEY]: scope } });
    } catch (error) {
      throw runtimeError(error, file.path, template.program);
    }
  }

  private compile(file: TemplateFile): CompiledTemplate {
    const key = createHash('sha256').update(file.content).digest('base64');
    const cached = this.compiled.get(key);
    if (cached) return cached;
    let program: Program;
    try {
      program = this.handlebars.parse(file.content);
    } catch (error) {
      throw syntaxError(error, file.path);
    }
    makeArgumentsStrict(program);
    const run = this.handlebars.compile(program, { strict: true, noEscape: true });
    if (this.compiled.size >= MAX_CACHED_TEMPLATES) this.compiled.clear();
    const template = { program, run };
    this.compiled.set(key, template);
    return template;
  }
}
