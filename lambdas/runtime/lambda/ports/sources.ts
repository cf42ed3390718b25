import { TASK_ENV } from '../task-environment';
import type { ConfigSource } from '../../../ports/config-source';
import { configSourcesFromFlags } from '../../../adapters/config-source/create-config-sources';
import type { LambdaEnvironment } from '../environment';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import type { ClmTokens } from '../secret-tokens';
import { tokensReader } from './tokens-reader';

/** Lambda may only write under /tmp: git mirrors live there, kept while the container lives. */
export const LAMBDA_GIT_WORKDIR = '/tmp/clm-workdir';

/**
 * The config sources `CLM_CONFIG_SOURCES` lists (`NAME:git:URL`, comma-separated, in order), with the git token.
 * Every `resolveVersion` fetches (incrementally, into the mirror under /tmp): a warm container keeps its sources
 * between invocations, and the git source's default reuse of a fetch younger than 5 s made a pass that a push asked
 * for, right after another pass in the same container, resolve the channel from the old mirror and start nothing.
 */
export const LAMBDA_GIT_FETCH_TTL_MS = 0;

export function sourcesFactory(env: LambdaEnvironment, tokens: ClmTokens): () => readonly ConfigSource[] {
  return () =>
    configSourcesFromFlags(
      {
        configSources: env
          .required(TASK_ENV.configSources)
          .split(/[\s,]+/)
          .filter(Boolean),
      },
      {
        cwd: '/tmp',
        workdir: LAMBDA_GIT_WORKDIR,
        git: { fetchTtlMs: LAMBDA_GIT_FETCH_TTL_MS },
        ...(tokens.gitToken ? { gitToken: tokens.gitToken } : {}),
      },
    );
}

/** Port module of the config sources (see ../port-modules.ts). */
export async function portFactories({ env, tokens }: WiringContext): Promise<PortFactories> {
  return { sources: sourcesFactory(env, await tokens(tokensReader(env))) };
}
