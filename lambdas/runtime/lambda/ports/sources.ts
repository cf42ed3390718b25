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

/** The config sources `CLM_CONFIG_SOURCES` lists (`NAME:git:URL`, comma-separated, in order), with the git token. */
export function sourcesFactory(env: LambdaEnvironment, tokens: ClmTokens): () => readonly ConfigSource[] {
  return () =>
    configSourcesFromFlags(
      {
        configSources: env
          .required(TASK_ENV.configSources)
          .split(/[\s,]+/)
          .filter(Boolean),
      },
      { cwd: '/tmp', workdir: LAMBDA_GIT_WORKDIR, ...(tokens.gitToken ? { gitToken: tokens.gitToken } : {}) },
    );
}

/** Port module of the config sources (see ../port-modules.ts). */
export async function portFactories({ env, tokens }: WiringContext): Promise<PortFactories> {
  return { sources: sourcesFactory(env, await tokens(tokensReader(env))) };
}
