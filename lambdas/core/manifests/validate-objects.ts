import type { KubeObject } from '../../ports/kube-cluster';
import type { RenderIssue } from '../render/render-issue';
import { ERROR_NAMES } from '../../shared/errors';

/** The API server refuses an object larger than etcd's request limit (about 1.5 MiB); CLM keeps a margin. */
export const MAX_OBJECT_BYTES = 1024 * 1024;

/** One rendered manifest file, named by its full path (`<source>/cluster/manifests/<component>/<file>`). */
export interface ManifestFileObjects {
  readonly path: string;
  readonly objects: readonly KubeObject[];
}

/**
 * An object's identity as the API server sees it: group (not version — `autoscaling/v1` and `/v2` name the
 * same HPA), kind, namespace and name.
 */
export function objectIdentity(object: KubeObject): string {
  const slash = object.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : object.apiVersion.slice(0, slash);
  return `${group}/${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
}

function describe(object: KubeObject): string {
  const namespace = object.metadata.namespace ? `${object.metadata.namespace}/` : '';
  return `${object.kind} ${namespace}${object.metadata.name}`;
}

/**
 * Checks over all rendered manifests, before any stack is touched: an object defined twice (in one file or
 * two: an error naming both, never "the later one wins") and objects over the size limit.
 */
export function manifestObjectIssues(files: readonly ManifestFileObjects[]): RenderIssue[] {
  const issues: RenderIssue[] = [];
  const firstSeen = new Map<string, string>();
  for (const file of files) {
    for (const object of file.objects) {
      const issue = (message: string): RenderIssue => ({
        error: ERROR_NAMES.ValidationError,
        message: `${file.path}: ${message}`,
        file: file.path,
      });
      const identity = objectIdentity(object);
      const earlier = firstSeen.get(identity);
      if (earlier !== undefined) issues.push(issue(`${describe(object)} is already defined in ${earlier}`));
      else firstSeen.set(identity, file.path);
      const bytes = Buffer.byteLength(JSON.stringify(object), 'utf8');
      if (bytes > MAX_OBJECT_BYTES)
        issues.push(issue(`${describe(object)} is ${bytes} bytes, over the limit of ${MAX_OBJECT_BYTES} bytes`));
    }
  }
  return issues;
}
