/**
 * A value that is loaded on first use and again once `maxAgeMs` have passed since it was loaded (tokens that expire or
 * rotate). Concurrent callers share one load; a failed load is not kept, so the next call tries again.
 */
export function refreshingValue<T>(
  load: (at: number) => Promise<T>,
  maxAgeMs: number,
  now: () => number = Date.now,
): () => Promise<T> {
  let current: { value: Promise<T>; loadedAt: number } | undefined;
  return () => {
    const at = now();
    if (!current || at - current.loadedAt >= maxAgeMs) {
      const value = load(at);
      current = { value, loadedAt: at };
      value.catch(() => {
        if (current?.value === value) current = undefined;
      });
    }
    return current.value;
  };
}
