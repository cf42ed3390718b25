/**
 * What `clm migrate` does with one file of a CLM config repository (paths relative to its root, `/`-separated):
 * - templates are the `.yaml`/`.yml` files under `cluster/` (what CLM renders: cluster.yaml, config-defaults.yaml,
 *   node-pools, manifests, deletions, cf-manifests, etcd); each is converted as a whole, or refused with the line
 *   and reason and copied unchanged;
 * - a template without any `{{` is the same in both dialects and is copied; one already converted is copied;
 * - every other file is copied as it is.
 */
import { hasGoSemanticsPragma } from '../render/go-semantics-pragma';
import { convertGoTemplate } from './convert-template';

export type MigrationOutcome =
  | { readonly path: string; readonly action: 'converted'; readonly content: string }
  | { readonly path: string; readonly action: 'copied'; readonly reason: string }
  | { readonly path: string; readonly action: 'refused'; readonly line?: number; readonly reason: string };

export function isTemplatePath(path: string): boolean {
  return path.startsWith('cluster/') && /\.ya?ml$/.test(path);
}

/** `content` is the file's text, or undefined when it is not UTF-8 text. */
export function migrateFile(path: string, content: string | undefined): MigrationOutcome {
  if (!isTemplatePath(path)) return { path, action: 'copied', reason: 'not a template' };
  if (content === undefined) return { path, action: 'copied', reason: 'not UTF-8 text' };
  if (hasGoSemanticsPragma(content)) return { path, action: 'copied', reason: 'already converted' };
  if (!content.includes('{{')) return { path, action: 'copied', reason: 'no template actions' };
  const result = convertGoTemplate(content, path);
  return result.ok
    ? { path, action: 'converted', content: result.output }
    : { path, action: 'refused', ...(result.line ? { line: result.line } : {}), reason: result.reason };
}
