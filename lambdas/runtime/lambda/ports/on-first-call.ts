/**
 * A port whose AWS part (its SDK client and adapter) loads at the first call of one of its methods instead of with
 * its port module: a step that never calls it never requires the client. RemoveDeletedPools reads its pools only when
 * a pool was removed, so a run without one never loads EC2 (≈ 130 ms of CPU); the template engine asks EC2 only when
 * a template looks an AMI or instance type up. Every method of the ports wrapped this way is async. A load that fails
 * is tried again at the next call.
 */
export function onFirstCall<T extends object>(load: () => Promise<T>): T {
  let loaded: Promise<T> | undefined;
  const port = () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  return new Proxy({} as T, {
    get: (_target, key) =>
      // not a thenable: `await port` must not call into it
      key === 'then' || typeof key === 'symbol'
        ? undefined
        : async (...args: unknown[]) => {
            const target = (await port()) as Record<string, (...a: unknown[]) => unknown>;
            return target[key]!(...args);
          },
  });
}
