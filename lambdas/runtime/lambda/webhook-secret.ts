import type { WebhookSecrets } from '../../adapters/webhook/forge-webhook-verifier';
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
 * Every forge's secrets from the secret's text: the plain form is GitHub's secret; JSON may add GitLab's token and
 * Bitbucket's secret, `{"secret": "...", "previous": "...", "gitlabToken": "...", "bitbucketSecret": "..."}` (each
 * optional, at least one given; `gitlabToken` and `bitbucketSecret` may be lists while they are rotated).
 */
export function parseWebhookSecrets(text: string, secretId: string): WebhookSecrets {
  const trimmed = text.trim();
  let json: Record<string, unknown> | undefined;
  try {
    json = trimmed.startsWith('{') ? (JSON.parse(trimmed) as Record<string, unknown>) : undefined;
  } catch {
    json = undefined;
  }
  const others = (key: string): string[] => {
    const value = json?.[key];
    const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
    if (!list.every((v): v is string => typeof v === 'string' && v.trim() !== '')) {
      throw new ConfigError(`secret ${secretId}: "${key}" must be a non-empty string or a list of them`);
    }
    return list;
  };
  const gitlab = others('gitlabToken');
  const bitbucket = others('bitbucketSecret');
  const githubGiven =
    !json || json.secret !== undefined || json.previous !== undefined || (!gitlab.length && !bitbucket.length);
  const github = githubGiven ? parseWebhookSecret(text, secretId) : [];
  for (const secret of [...gitlab, ...bitbucket]) rememberSecret(secret);
  return { github, gitlab, bitbucket };
}

/**
 * A verifier over the secret in Secrets Manager, read on first use and again after `ttlMs`; a failed read is not
 * kept. `build` makes the verifier from the secrets (octokit's, in the port module).
 */
export function secretBackedVerifier(options: {
  readonly secretId: string;
  readonly reader: () => Promise<SecretReader>;
  readonly build: (secrets: WebhookSecrets) => WebhookVerifier;
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
        .then((text) => options.build(parseWebhookSecrets(text, options.secretId)));
      const entry = { at: now(), verifier: read };
      read.catch(() => {
        if (cached === entry) cached = undefined;
      });
      cached = entry;
    }
    return cached.verifier;
  };
  return {
    verify: async (body, signature) => (await verifier()).verify(body, signature),
    verifyGitlab: async (token) => (await verifier()).verifyGitlab(token),
    verifyBitbucket: async (body, signature) => (await verifier()).verifyBitbucket(body, signature),
  };
}
