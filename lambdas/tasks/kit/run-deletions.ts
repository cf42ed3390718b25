import { deletionSelector } from '../../core/deletions/deletion-selector';
import type { Deletion } from '../../core/deletions/deletion';
import type { KubeCluster } from '../../ports/kube-cluster';

/**
 * Execute deletions.yaml entries in order (CLM §5.1): by name (not found is fine), or by selector/labels
 * (list, filter by owner, delete each in its own namespace). Namespaces get CLM's deletion-protection
 * annotations first. Returns a line per deleted object.
 */
export async function runDeletions(kube: KubeCluster, deletions: readonly Deletion[], now: number): Promise<string[]> {
  const deleted: string[] = [];
  for (const entry of deletions) {
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
      const ref = {
        kind: entry.kind,
        name: object.metadata.name,
        ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
      };
      if ((await kube.delete(ref, options)) === 'deleted')
        deleted.push(`${object.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`);
    }
  }
  return deleted;
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
