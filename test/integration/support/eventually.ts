/**
 * Polls `check` until it returns a truthy value (or, for a check that throws, until it stops throwing) and returns
 * that value. Failing after `timeoutMs` names what was awaited and the last error: a condition, not a duration,
 * is what the tests assert.
 */
export async function eventually<T>(
  what: string,
  check: () => Promise<T>,
  timeoutMs = 60_000,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for: ${what}${lastError ? ` (last error: ${(lastError as Error).message})` : ''}`,
      );
    }
    await new Promise((done) => setTimeout(done, intervalMs));
  }
}
