import type { Deletion } from './deletion';

/** The label selector a selector or labels entry lists its targets with (name entries have none). */
export function deletionSelector(entry: Exclude<Deletion, { readonly name: string }>): string {
  return 'selector' in entry
    ? entry.selector
    : Object.entries(entry.labels)
        .map(([k, v]) => `${k}=${v}`)
        .join(',');
}
