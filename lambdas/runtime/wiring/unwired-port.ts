import { ConfigError } from '../../shared/errors';

/**
 * A stand-in for a port this runtime does not provide (the fleet's execution service in `clm provision`): any use
 * is a ConfigError saying what provides it. Tasks only ever see the ports they declare, so a stand-in is only
 * reached by a task that needs a runtime with the real one.
 */
export function unwiredPort<T extends object>(port: string, providedBy: string): T {
  return new Proxy({} as T, {
    get(_target, member) {
      // `await port` and inspection look for these: a stand-in is not a promise and has no custom printing.
      if (member === 'then' || typeof member === 'symbol') return undefined;
      throw new ConfigError(`ports.${port}.${String(member)} is not wired here; ${providedBy}`);
    },
  });
}
