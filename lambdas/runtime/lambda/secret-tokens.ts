/**
 * The tokens of the registry, the git config sources and the clusters' API servers, from one Secrets Manager secret
 * (`CLM_SECRET_ARN`) holding JSON `{"registryToken": "...", "gitToken": "...", "clusterToken": "..."}`; every key is
 * optional (a public config repository needs no git token). Read on first use and again once TOKENS_TTL_MS have
 * passed, so a rotated secret is seen by warm containers; a failed read is not kept, so the next invocation tries again. Token values never reach a log line or an error
 * message: errors name the secret and the key, never the content.
 */
import * as z from '../../shared/zod';
import { ConfigError } from '../../shared/errors';
import { refreshingValue } from '../../adapters/kube/refreshing-value';
import { rememberSecret } from '../../shared/redact';

export interface ClmTokens {
  readonly registryToken?: string;
  readonly gitToken?: string;
  readonly clusterToken?: string;
}

/** Reads a secret's `SecretString` (secrets-manager-reader.ts in Lambda, a fake in tests). */
export type SecretReader = (secretId: string) => Promise<string>;

const TokenSecret = z.object({
  registryToken: z.optional(z.string().check(z.minLength(1))),
  gitToken: z.optional(z.string().check(z.minLength(1))),
  clusterToken: z.optional(z.string().check(z.minLength(1))),
});

/** Parse the secret's JSON; errors say what is wrong without quoting it. */
export function parseTokens(secretString: string, secretId: string): ClmTokens {
  let json: unknown;
  try {
    json = JSON.parse(secretString);
  } catch {
    // JSON.parse's own message quotes the input: never pass it on.
    throw new ConfigError(
      `secret ${secretId} is not JSON; expected {"registryToken": "...", "gitToken": "...", "clusterToken": "..."}`,
    );
  }
  const parsed = TokenSecret.safeParse(json);
  if (!parsed.success) {
    const keys = [...new Set(parsed.error.issues.map((issue) => issue.path.map(String).join('.') || '(root)'))];
    throw new ConfigError(
      `secret ${secretId}: ${keys.join(', ')} must be ${keys.includes('(root)') ? 'a JSON object of strings' : 'non-empty strings'}; expected {"registryToken": "...", "gitToken": "...", "clusterToken": "..."}`,
    );
  }
  const { registryToken, gitToken, clusterToken } = parsed.data;
  for (const token of [registryToken, gitToken, clusterToken]) rememberSecret(token);
  return {
    ...(registryToken ? { registryToken } : {}),
    ...(gitToken ? { gitToken } : {}),
    ...(clusterToken ? { clusterToken } : {}),
  };
}

/** How long a container keeps the tokens secret before reading it again (a rotation takes effect within this). */
export const TOKENS_TTL_MS = 5 * 60_000;

/**
 * The tokens: without a secret, none (public sources, an open registry); with one, its parsed content, read again
 * after `ttlMs`. `reader` is only called (and, in Lambda, the Secrets Manager client only loaded) when there is a
 * secret.
 */
export function cachedTokens(
  secretId: string | undefined,
  reader: () => Promise<SecretReader>,
  options: { readonly now?: () => number; readonly ttlMs?: number } = {},
): () => Promise<ClmTokens> {
  if (!secretId) return () => Promise.resolve({});
  return refreshingValue(
    () =>
      reader()
        .then((read) => read(secretId))
        .then((text) => parseTokens(text, secretId)),
    options.ttlMs ?? TOKENS_TTL_MS,
    options.now,
  );
}
