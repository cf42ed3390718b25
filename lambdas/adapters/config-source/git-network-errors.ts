/** The network failure behind an error of isomorphic-git's HTTP client (`ECONNREFUSED`, a timeout), if it is one. */
export function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const { code, name } = current as { code?: string; name?: string };
    if (name === 'TimeoutError' || name === 'AbortError') return 'no response in time';
    if (code && /^E[A-Z]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
