import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { traced as Traced } from '../../../lambdas/runtime/lambda/tracing';

/**
 * `client` through a fresh copy of the tracing module, under `env` (Powertools reads the environment when the tracer
 * is made, on the first call).
 */
function tracedUnder<C extends object>(env: Record<string, string>, client: C): C {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    let result: C | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module instance, synchronously
      result = (require('../../../lambdas/runtime/lambda/tracing') as { traced: typeof Traced }).traced(client);
    });
    return result!;
  } finally {
    process.env = saved;
  }
}

const middleware = (client: DynamoDBClient) => client.middlewareStack.identify().join(' ');

describe('traced (Powertools Tracer)', () => {
  it('adds X-Ray instrumentation to SDK clients in Lambda', () => {
    const lambda = { AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', AWS_LAMBDA_FUNCTION_NAME: 'clm-Prepare' };
    const client = tracedUnder(lambda, new DynamoDBClient({ region: 'eu-central-1' }));
    expect(middleware(client)).toContain('XRaySDKInstrumentation');
  });

  it('leaves clients as they are outside Lambda (the CLI, tests)', () => {
    const client = new DynamoDBClient({ region: 'eu-central-1' });
    const plain = middleware(client);
    expect(middleware(tracedUnder({ AWS_EXECUTION_ENV: '' }, client))).toBe(plain);
    expect(plain).not.toContain('XRaySDKInstrumentation');
  });
});
