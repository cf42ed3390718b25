import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ConfigError } from '../../shared/errors';
import { toClmError } from '../../adapters/aws/aws-errors';
import type { LambdaEnvironment } from './environment';
import type { SecretReader } from './secret-tokens';
import { traced } from './tracing';

/** GetSecretValue in the task's own region and account; the value is returned, never logged. */
export function secretsManagerReader(
  env: Pick<LambdaEnvironment, 'region' | 'endpoint'>,
  client?: SecretsManagerClient,
): SecretReader {
  const sm =
    client ??
    traced(new SecretsManagerClient({ region: env.region, ...(env.endpoint ? { endpoint: env.endpoint } : {}) }));
  return async (secretId) => {
    let text: string | undefined;
    try {
      text = (await sm.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
    } catch (error) {
      throw toClmError(error, `Secrets Manager GetSecretValue ${secretId}`);
    }
    if (text === undefined)
      throw new ConfigError(`secret ${secretId} has no SecretString (binary secrets are not supported)`);
    return text;
  };
}
