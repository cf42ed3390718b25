import { deletionSelector } from '../../core/deletions/deletion-selector';
import type { Deletion } from '../../core/deletions/deletion';
import type { KubeCluster } from '../../ports/kube-cluster';

/** Where a run of deletions stopped: `next` is the entry to start from on the next call (undefined: all done). */
export interface DeletionsPass {
  readonly deleted: string[];
  readonly next?: number;
}

/**
 * Execute deletions.yaml entries in order (CLM §5.1): by name (not found is fine), or by selector/labels
 * (list, filter by owner, delete each in its own namespace). Namespaces get CLM's deletion-protection
 * annotations first. Returns a line per deleted object.
 */
export async function runDeletions(kube: KubeCluster, deletions: readonly Deletion[], now: number): Promise<string[]> {
  return (await runDeletionsFrom(kube, deletions, now, { from: 0, outOfTime: () => false })).deleted;
}

/**
 * The same from entry `from`, stopping between objects once `outOfTime()` says so (after at least one deletion, so
 * every call makes progress). A stop inside a selector entry resumes at that entry: it is listed again, and what
 * this call deleted is gone from the list (or being deleted: objects with a deletionTimestamp are skipped), so no
 * object is deleted twice.
 */
export async function runDeletionsFrom(
  kube: KubeCluster,
  deletions: readonly Deletion[],
  now: number,
  { from, outOfTime }: { readonly from: number; readonly outOfTime: () => boolean },
): Promise<DeletionsPass> {
  const deleted: string[] = [];
  let calls = 0;
  const stop = () => calls > 0 && outOfTime();
  for (let index = from; index < deletions.length; index++) {
    const entry = deletions[index];
    if (stop()) return { deleted, next: index };
    const options = {
      ...(entry.propagationPolicy ? { propagationPolicy: entry.propagationPolicy } : {}),
      ...(entry.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: entry.gracePeriodSeconds } : {}),
    };
    if ('name' in entry) {
      if (entry.kind === 'Namespace') await annotateNamespace(kube, entry.name, now);
      const result = await kube.delete(
        { kind: entry.kind, name: entry.name, ...(entry.namespace ? { namespace: entry.namespace } : {}) },
        options,
      );
      calls++;
      if (result === 'deleted')
        deleted.push(`${entry.kind} ${entry.namespace ? `${entry.namespace}/` : ''}${entry.name}`);
      continue;
    }
    const labelSelector = deletionSelector(entry);
    const matches = await kube.list(entry.kind, {
      labelSelector,
      ...(entry.namespace ? { namespace: entry.namespace } : {}),
    });
    for (const object of matches) {
      const owned = (object.metadata.ownerReferences?.length ?? 0) > 0;
      if (entry.hasOwner !== undefined && owned !== entry.hasOwner) continue;
      if (object.metadata.deletionTimestamp !== undefined) continue;
      if (stop()) return { deleted, next: index };
      const ref = {
        kind: entry.kind,
        name: object.metadata.name,
        ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
      };
      calls++;
      if ((await kube.delete(ref, options)) === 'deleted')
        deleted.push(`${object.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`);
    }
  }
  return { deleted };
}

async function annotateNamespace(kube: KubeCluster, name: string, now: number): Promise<void> {
  const date = new Date(now).toISOString().slice(0, 10);
  try {
    await kube.annotate(
      { kind: 'Namespace', name },
      { 'zalando.org/delete-date': date, 'zalando.org/delete-namespace': name },
    );
  } catch {
    // the namespace may already be gone; the delete below reports not-found
  }
}
