import type { LambdaEnvironment } from '../environment';
import type { SecretReader } from '../secret-tokens';

/** The Secrets Manager reader of the tokens secret, loaded only when there is a secret to read (WiringContext.tokens). */
export function tokensReader(env: LambdaEnvironment): () => Promise<SecretReader> {
  return async () => (await import('../secrets-manager-reader')).secretsManagerReader(env);
}
