import * as z from '../../shared/zod';
import { ConfigError } from '../../shared/errors';
import { rememberSecret } from '../../shared/redact';
import { DEFAULT_FORGE_HOSTS, FORGE_KINDS, type ForgeKind } from '../../core/forge/forge-hosts';
import { parseForgeCredentials, type ForgeCredentials } from './forge-credentials';

export const DEFAULT_GITLAB_API_URL = 'https://gitlab.com/api/v4';
export const DEFAULT_BITBUCKET_API_URL = 'https://api.bitbucket.org/2.0';

/** How CLM authenticates to Bitbucket Cloud: an access token (Bearer) or a user's app password (Basic). */
export type BitbucketAuth =
  | { readonly kind: 'bearer'; readonly token: string }
  | { readonly kind: 'basic'; readonly username: string; readonly appPassword: string };

/** One forge's entry: its credentials, API URL (absent: the default, or for GitHub the deployment's) and hosts. */
interface Entry {
  /** Hosts of git URLs this forge serves besides its default one (the API URL's host is added). */
  readonly hosts: readonly string[];
}

/** The forges a secret names, each with what it needs. */
export interface ForgeSecret {
  readonly github?: Entry & { readonly credentials: ForgeCredentials; readonly apiUrl?: string };
  readonly gitlab?: Entry & { readonly token: string; readonly apiUrl: string };
  readonly bitbucket?: Entry & { readonly auth: BitbucketAuth; readonly apiUrl: string };
}

const HOST = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d+)?$/i;
const Common = {
  apiUrl: z.optional(z.string().check(z.regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'must be an http(s) URL'))),
  hosts: z.optional(z.array(z.string().check(z.regex(HOST, 'must be a host name like git.example.com')))),
};
const Secret = z.string().check(z.minLength(1, 'must not be empty'));
const Gitlab = z.strictObject({ token: Secret, ...Common });
const BitbucketToken = z.strictObject({ token: Secret, ...Common });
const BitbucketAppPassword = z.strictObject({ username: Secret, appPassword: Secret, ...Common });
const GithubExtras = z.looseObject(Common);

/**
 * The forge credentials secret (Secrets Manager `forgeSecretArn`, `clm serve --forge-credentials-file`): today's
 * GitHub-only forms unchanged (a token, `{"token"}`, a GitHub App), or one entry per forge:
 * `{"github": <a GitHub form>, "gitlab": {"token", "apiUrl"?}, "bitbucket": {"token"} | {"username", "appPassword"}}`,
 * each with optional `apiUrl` and `hosts` (self-hosted git hosts). Errors name the field, never a value; every secret
 * is remembered for redaction.
 */
export function parseForgeSecret(text: string, from: string): ForgeSecret {
  const json = perForgeJson(text);
  if (!json) return { github: { credentials: parseForgeCredentials(text, from), hosts: [] } };
  const unknown = Object.keys(json).filter((key) => !(FORGE_KINDS as readonly string[]).includes(key));
  if (unknown.length) {
    throw new ConfigError(
      `${from}: unknown forge ${unknown.map((k) => JSON.stringify(k)).join(', ')}; expected github, gitlab or bitbucket`,
    );
  }
  return {
    ...(json.github !== undefined ? { github: githubEntry(json.github, `${from}: github`) } : {}),
    ...(json.gitlab !== undefined ? { gitlab: gitlabEntry(json.gitlab, `${from}: gitlab`) } : {}),
    ...(json.bitbucket !== undefined ? { bitbucket: bitbucketEntry(json.bitbucket, `${from}: bitbucket`) } : {}),
  };
}

/** The per-forge object, or undefined for one of today's GitHub forms (parsed as before). */
function perForgeJson(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  return FORGE_KINDS.some((kind) => kind in json) ? (json as Record<string, unknown>) : undefined;
}

function githubEntry(value: unknown, from: string): NonNullable<ForgeSecret['github']> {
  if (typeof value === 'string') return { credentials: parseForgeCredentials(value, from), hosts: [] };
  const extras = checked(GithubExtras, value, from);
  const { apiUrl, hosts, ...credentials } = extras;
  return {
    credentials: parseForgeCredentials(JSON.stringify(credentials), from),
    ...(apiUrl ? { apiUrl } : {}),
    hosts: withApiHost('github', hosts, apiUrl),
  };
}

function gitlabEntry(value: unknown, from: string): NonNullable<ForgeSecret['gitlab']> {
  const entry = checked(Gitlab, value, from);
  rememberSecret(entry.token);
  const apiUrl = entry.apiUrl ?? DEFAULT_GITLAB_API_URL;
  return { token: entry.token, apiUrl, hosts: withApiHost('gitlab', entry.hosts, apiUrl) };
}

function bitbucketEntry(value: unknown, from: string): NonNullable<ForgeSecret['bitbucket']> {
  const basic = !!value && typeof value === 'object' && ('username' in value || 'appPassword' in value);
  const entry = basic ? checked(BitbucketAppPassword, value, from) : checked(BitbucketToken, value, from);
  const apiUrl = entry.apiUrl ?? DEFAULT_BITBUCKET_API_URL;
  const hosts = withApiHost('bitbucket', entry.hosts, apiUrl);
  if ('token' in entry) {
    rememberSecret(entry.token);
    return { auth: { kind: 'bearer', token: entry.token }, apiUrl, hosts };
  }
  rememberSecret(entry.appPassword);
  rememberSecret(Buffer.from(`${entry.username}:${entry.appPassword}`).toString('base64'));
  return { auth: { kind: 'basic', username: entry.username, appPassword: entry.appPassword }, apiUrl, hosts };
}

/** The entry parsed, or a ConfigError naming each bad field (zod's messages do not carry values). */
function checked<T>(schema: z.ZodMiniType<T>, value: unknown, from: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${[...i.path].map(String).join('.') || '(entry)'}: ${i.message}`);
  throw new ConfigError(`${from}: ${issues.join('; ')}`);
}

/** The configured hosts, lower-cased, plus the API URL's host when it is not the forge's default API. */
function withApiHost(kind: ForgeKind, hosts: readonly string[] | undefined, apiUrl: string | undefined): string[] {
  const all = new Set((hosts ?? []).map((h) => h.toLowerCase()));
  if (apiUrl) {
    const host = new URL(apiUrl).hostname.toLowerCase();
    if (host !== DEFAULT_FORGE_HOSTS[kind] && host !== `api.${DEFAULT_FORGE_HOSTS[kind]}`) all.add(host);
  }
  return [...all];
}
