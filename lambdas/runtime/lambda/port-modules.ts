import type { PortName } from '../../tasks/define-task';
import type { PortFactories } from '../restrict-ports';
import { lambdaEnvironment, type LambdaEnvironment } from './environment';
import { cachedTokens, type ClmTokens, type SecretReader } from './secret-tokens';

/**
 * Which module under runtime/lambda/ports/ builds each port in Lambda. A function's generated entry
 * (handler-entry.ts) imports, with `import()`, only the modules of its task's ports: esbuild then bundles only
 * those adapters, and a container loads them on its first invocation, not at module init.
 */
export const PORT_MODULES = {
  progress: 'stores',
  artifacts: 'artifacts',
  clock: 'stores',
  registry: 'registry',
  sources: 'sources',
  templates: 'templates',
  secrets: 'secrets',
  stacks: 'stacks',
  pools: 'pools',
  values: 'values',
  lookups: 'lookups',
  alarms: 'alarms',
  leftovers: 'leftovers',
  eks: 'eks',
  quotas: 'quotas',
  nodeFiles: 'node-files',
  kube: 'kube',
  fleet: 'fleet',
  executions: 'executions',
  events: 'events',
  webhooks: 'webhooks',
  forge: 'forge',
  launches: 'launches',
  rehearsals: 'rehearsals',
} as const satisfies Record<PortName, string>;

export type PortModuleName = (typeof PORT_MODULES)[PortName];

/** What every port module receives: the environment, read once, and the tokens secret, read again after a TTL. */
export interface WiringContext {
  readonly env: LambdaEnvironment;
  /**
   * The tokens secret (`CLM_SECRET_ARN`), read on the first call and again once TOKENS_TTL_MS have passed. The port
   * modules that need it pass the reader (tokens-reader.ts), so only their tasks carry the Secrets Manager client.
   */
  tokens(reader: () => Promise<SecretReader>): Promise<ClmTokens>;
  /**
   * Whether the secret now holds other tokens than the port modules were last given (a rotation): the Lambda
   * handler then builds its ports again. False while no module asked for the tokens, and within the TTL.
   */
  tokensChanged(): Promise<boolean>;
}

/** A module of runtime/lambda/ports/: the factories of the ports it builds. */
export interface PortModule {
  portFactories(context: WiringContext): Promise<PortFactories>;
}

/** One per container. */
export function wiringContext(env: Readonly<Record<string, string | undefined>>): WiringContext {
  const settings = lambdaEnvironment(env);
  let tokens: (() => Promise<ClmTokens>) | undefined;
  let given: string | undefined;
  return {
    env: settings,
    tokens: async (reader) => {
      tokens ??= cachedTokens(settings.secretArn, reader);
      const current = await tokens();
      given = JSON.stringify(current);
      return current;
    },
    tokensChanged: async () => {
      if (given === undefined || tokens === undefined) return false;
      // A failed read keeps the ports as they are; the next invocation reads again.
      const current = await tokens().catch(() => undefined);
      return current !== undefined && JSON.stringify(current) !== given;
    },
  };
}
