/**
 * The slice of a logger the registry and config-source adapters use. The Powertools Logger from
 * `shared/logger.ts` fits; tests pass a recorder. Adapters never put tokens or headers into log lines.
 */
export interface AdapterLogger {
  warn(message: string, ...attributes: Record<string, unknown>[]): void;
  debug(message: string, ...attributes: Record<string, unknown>[]): void;
}

export const silentLogger: AdapterLogger = { warn: () => undefined, debug: () => undefined };
