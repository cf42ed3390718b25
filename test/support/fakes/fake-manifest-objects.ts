import type { ApplyResult, DeleteOptions, KubeObject, ObjectRef } from '../../../lambdas/ports/kube-cluster';
import { matches, parseSelector } from '../../../lambdas/core/kube/label-selector';

const key = (ref: { kind: string; namespace?: string; name: string }): string =>
  `${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;

/**
 * The objects of applied manifests in FakeKubeCluster, keyed `Kind/namespace/name`: apply (created / configured /
 * unchanged by content; a dry run stores nothing), delete, list by kind, namespace and label selector, annotate.
 * Every call is recorded in `calls`.
 */
export class FakeManifestObjects {
  readonly objects = new Map<string, KubeObject>();
  /** Every call, in order: "evictPod default/web-1" etc. */
  readonly calls: string[] = [];

  async apply(
    objects: readonly KubeObject[],
    options: { readonly fieldManager: string; readonly dryRun?: boolean },
  ): Promise<ApplyResult[]> {
    return objects.map((object) => {
      const ref = {
        apiVersion: object.apiVersion,
        kind: object.kind,
        ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
        name: object.metadata.name,
      };
      this.calls.push(`apply ${key(ref)}`);
      const before = this.objects.get(key(ref));
      if (!options.dryRun) this.objects.set(key(ref), object);
      const action = !before
        ? 'created'
        : JSON.stringify(before) === JSON.stringify(object)
          ? 'unchanged'
          : 'configured';
      return { ref, action } satisfies ApplyResult;
    });
  }

  async delete(ref: ObjectRef, _options?: DeleteOptions): Promise<'deleted' | 'not-found'> {
    this.calls.push(`delete ${key(ref)}`);
    return this.objects.delete(key(ref)) ? 'deleted' : 'not-found';
  }

  async list(
    kind: string,
    options: { readonly namespace?: string; readonly labelSelector?: string } = {},
  ): Promise<KubeObject[]> {
    this.calls.push(`list ${kind}`);
    const selector = parseSelector(options.labelSelector);
    return [...this.objects.values()].filter(
      (o) =>
        o.kind === kind &&
        (options.namespace === undefined || o.metadata.namespace === options.namespace) &&
        matches(selector, o.metadata.labels ?? {}),
    );
  }

  async annotate(ref: ObjectRef, annotations: Readonly<Record<string, string>>): Promise<void> {
    this.calls.push(`annotate ${key(ref)}`);
    const object = this.objects.get(key(ref));
    if (object)
      this.objects.set(key(ref), {
        ...object,
        metadata: { ...object.metadata, annotations: { ...object.metadata.annotations, ...annotations } },
      });
  }
}
