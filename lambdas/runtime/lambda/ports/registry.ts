import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { TASK_ENV } from '../task-environment';
import type { Registry } from '../../../ports/registry';
import { createRegistry } from '../../../adapters/registry/create-registry';
import type { LambdaEnvironment } from '../environment';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import type { ClmTokens } from '../secret-tokens';
import { traced } from '../tracing';
import { tokensReader } from './tokens-reader';

/** The registry `CLM_REGISTRY` names (http(s)://, dynamodb://TABLE, or a file under /tmp), with the registry token. */
export function registryFactory(env: LambdaEnvironment, tokens: ClmTokens): () => Registry {
  return () =>
    createRegistry(env.required(TASK_ENV.registryUri), {
      cwd: '/tmp',
      ...(tokens.registryToken ? { token: tokens.registryToken } : {}),
      dynamoDb: traced(new DynamoDBClient({ region: env.region, ...(env.endpoint ? { endpoint: env.endpoint } : {}) })),
    });
}

/** Port module of the registry (see ../port-modules.ts). */
export async function portFactories({ env, tokens }: WiringContext): Promise<PortFactories> {
  return { registry: registryFactory(env, await tokens(tokensReader(env))) };
}
