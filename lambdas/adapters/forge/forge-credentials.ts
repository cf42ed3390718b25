import * as z from '../../shared/zod';
import { ConfigError } from '../../shared/errors';
import { rememberSecret } from '../../shared/redact';

/**
 * What CLM authenticates to GitHub with, from a secret's text (Secrets Manager, or `clm serve --github-token-file`):
 * a token (`ghp_…`, `github_pat_…`, or JSON `{"token": "..."}`), or a GitHub App as JSON
 * `{"appId": …, "privateKey": "-----BEGIN…", "installationId": …}` (installation tokens are minted from it).
 */
export type ForgeCredentials =
  | { readonly kind: 'token'; readonly token: string }
  | { readonly kind: 'app'; readonly appId: string; readonly privateKey: string; readonly installationId: number };

const Token = z.object({ token: z.string().check(z.minLength(1)) });
const App = z.object({
  appId: z.union([z.string().check(z.minLength(1)), z.number().check(z.int())]),
  privateKey: z.string().check(z.regex(/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'must be a PEM private key')),
  installationId: z.union([z.number().check(z.int(), z.positive()), z.string().check(z.regex(/^\d+$/))]),
});

/** Parse; errors name where the text came from, never its content. Secrets are remembered for redaction. */
export function parseForgeCredentials(text: string, from: string): ForgeCredentials {
  const trimmed = text.trim();
  if (!trimmed) throw new ConfigError(`${from} is empty; put a GitHub token or GitHub App credentials in it`);
  if (!trimmed.startsWith('{')) {
    rememberSecret(trimmed);
    return { kind: 'token', token: trimmed };
  }
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    throw new ConfigError(`${from} starts like JSON but is not`);
  }
  const token = Token.safeParse(json);
  if (token.success) {
    rememberSecret(token.data.token);
    return { kind: 'token', token: token.data.token };
  }
  const app = App.safeParse(json);
  if (!app.success) {
    const issues = app.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(
      `${from}: expected {"token": "..."} or {"appId", "privateKey", "installationId"} of a GitHub App (${issues})`,
    );
  }
  rememberSecret(app.data.privateKey);
  return {
    kind: 'app',
    appId: String(app.data.appId),
    privateKey: app.data.privateKey,
    installationId: Number(app.data.installationId),
  };
}
