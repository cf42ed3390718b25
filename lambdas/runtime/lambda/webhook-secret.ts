import type { WebhookVerifier } from '../../ports/webhook-verifier';
import { ConfigError } from '../../shared/errors';
import type { SecretReader } from './secret-tokens';
import { rememberSecret } from '../../shared/redact';

/** How long a container keeps the webhook secret before reading it again (a rotation takes effect within this). */
export const WEBHOOK_SECRET_TTL_MS = 5 * 60_000;

/**
 * The secrets a delivery may be signed with, from the secret's text: the secret itself, or JSON
 * `{"secret": "...", "previous": "..."}` while it is rotated (GitHub's hook already has the new one, or not yet).
 * Errors name the secret, never its content.
 */
export function parseWebhookSecret(text: string, secretId: string): string[] {
  const secrets = webhookSecrets(text, secretId);
  for (const secret of secrets) rememberSecret(secret);
  return secrets;
}

function webhookSecrets(text: string, secretId: string): string[] {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) {
    if (!trimmed) throw new ConfigError(`secret ${secretId} is empty; put the GitHub webhook secret in it`);
    return [trimmed];
  }
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    throw new ConfigError(
      `secret ${secretId} starts like JSON but is not; expected {"secret": "...", "previous": "..."}`,
    );
  }
  const { secret, previous } = json as { secret?: unknown; previous?: unknown };
  if (typeof secret !== 'string' || !secret.trim() || (previous !== undefined && typeof previous !== 'string')) {
    throw new ConfigError(`secret ${secretId}: "secret" must be a non-empty string and "previous" a string`);
  }
  return [secret, ...(previous?.trim() ? [previous] : [])];
}

/**
 * A verifier over the secret in Secrets Manager, read on first use and again after `ttlMs`; a failed read is not
 * kept. `build` makes the verifier from the secrets (octokit's, in the port module).
 */
export function secretBackedVerifier(options: {
  readonly secretId: string;
  readonly reader: () => Promise<SecretReader>;
  readonly build: (secrets: readonly string[]) => WebhookVerifier;
  readonly now?: () => number;
  readonly ttlMs?: number;
}): WebhookVerifier {
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? WEBHOOK_SECRET_TTL_MS;
  let cached: { at: number; verifier: Promise<WebhookVerifier> } | undefined;
  const verifier = () => {
    if (!cached || now() - cached.at >= ttl) {
      const read = options
        .reader()
        .then((readSecret) => readSecret(options.secretId))
        .then((text) => options.build(parseWebhookSecret(text, options.secretId)));
      const entry = { at: now(), verifier: read };
      read.catch(() => {
        if (cached === entry) cached = undefined;
      });
      cached = entry;
    }
    return cached.verifier;
  };
  return { verify: async (body, signature) => (await verifier()).verify(body, signature) };
}
