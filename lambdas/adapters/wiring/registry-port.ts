import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { TASK_ENV } from '../../../infra/task-environment';
import type { Registry } from '../../ports/registry';
import { createRegistry } from '../registry/create-registry';
import type { LambdaEnvironment } from './lambda-environment';
import type { ClmTokens } from './secret-tokens';

/** The registry `CLM_REGISTRY` names (http(s)://, dynamodb://TABLE, or a file under /tmp), with the registry token. */
export function registryFactory(env: LambdaEnvironment, tokens: ClmTokens): () => Registry {
  return () =>
    createRegistry(env.required(TASK_ENV.registryUri), {
      cwd: '/tmp',
      ...(tokens.registryToken ? { token: tokens.registryToken } : {}),
      dynamoDb: new DynamoDBClient({ region: env.region, ...(env.endpoint ? { endpoint: env.endpoint } : {}) }),
    });
}
