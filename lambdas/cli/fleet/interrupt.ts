/**
 * Ctrl-C (SIGINT) and SIGTERM ask the running command to stop at its next safe point; a second Ctrl-C exits at
 * once. Returns a function that removes the handlers.
 */
export function onInterrupt(stop: () => void, log: (line: string) => void): () => void {
  let asked = false;
  const handler = (signal: NodeJS.Signals) => {
    if (asked) {
      log(`${signal} again: exiting now`);
      process.exit(130);
    }
    asked = true;
    log(`${signal}: stopping at the next safe point (Ctrl-C again to exit at once)`);
    stop();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
