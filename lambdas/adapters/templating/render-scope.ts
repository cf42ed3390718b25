/** The per-render state helpers see. */
import type { RenderRequest, TemplateFile } from '../../ports/template-engine';
import type { CloudLookupCache, LookupRound } from './cloud-lookup-cache';

export interface RenderScope {
  /** The template being rendered (a sibling while computing manifestHash). */
  readonly file: TemplateFile;
  readonly request: RenderRequest;
  /** True inside a template rendered for manifestHash, which may not call manifestHash itself. */
  readonly computingManifestHash: boolean;
  readonly round: LookupRound;
  readonly lookups: CloudLookupCache;
  /** Renders another template with the same context and lookups, synchronously. */
  readonly renderNested: (file: TemplateFile, scope: RenderScope) => string;
}
