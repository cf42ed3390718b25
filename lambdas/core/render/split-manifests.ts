import { ValidationError } from '../../shared/errors';
import type { KubeObject } from '../../ports/kube-cluster';
import { isRecord, yamlTypeName } from '../config/plain-data';
import { loadAllLastKeyWins } from '../config/yaml-data';

/**
 * Split a rendered manifest file into Kubernetes objects (CLM §4.5): YAML documents, empty ones dropped,
 * comments gone (objects are data). Every document must have apiVersion, kind and metadata.name (so
 * `generateName` and `List` are not supported, as in CLM); all offending documents are reported, by
 * 0-based document index, in one ValidationError. A YAML syntax error throws ConfigError with the line.
 * Scalars keep their written type (no dates from `2010-09-09`); a key repeated in a mapping keeps its last value,
 * as in CLM, and each repetition adds a warning naming the file, line and key to `warnings`.
 */
export function splitManifests(text: string, file: string, warnings: string[] = []): KubeObject[] {
  const { documents, duplicates } = loadAllLastKeyWins(text, file);
  for (const { key, line } of duplicates)
    warnings.push(`${file}:${line}: duplicate key "${key}": the last value wins (as in CLM)`);
  const objects: KubeObject[] = [];
  const issues: string[] = [];
  documents.forEach((doc, index) => {
    if (doc === null || doc === undefined) return;
    const problem = manifestProblem(doc);
    if (problem) issues.push(`${file}: document[${index}]: ${problem}`);
    else objects.push(doc as KubeObject);
  });
  if (issues.length) {
    throw new ValidationError(`unsupported manifest${issues.length > 1 ? 's' : ''}`, { location: { file }, issues });
  }
  return objects;
}

function manifestProblem(doc: unknown): string | undefined {
  if (!isRecord(doc)) return `expected a Kubernetes object (a mapping), found ${yamlTypeName(doc)}`;
  const missing = [
    nonEmptyString(doc.apiVersion) ? '' : 'apiVersion',
    nonEmptyString(doc.kind) ? '' : 'kind',
    isRecord(doc.metadata) && nonEmptyString(doc.metadata.name) ? '' : 'metadata.name',
  ].filter(Boolean);
  if (!missing.length) return undefined;
  const what = nonEmptyString(doc.kind) ? ` (kind ${doc.kind})` : '';
  return `missing ${missing.join(', ')}${what}; every object needs apiVersion, kind and metadata.name`;
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
