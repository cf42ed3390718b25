import { createAppAuth } from '@octokit/auth-app';
import { request } from '@octokit/request';
import { rememberSecret } from '../../shared/redact';
import { ConfigError, TransientApiError } from '../../shared/errors';
import type { ForgeCredentials } from './forge-credentials';

/**
 * The token a GithubForge sends: the configured token, or a GitHub App's installation token minted with
 * @octokit/auth-app (a JWT signed with the App's key, `POST /app/installations/{id}/access_tokens` against the
 * configured API URL). auth-app caches the installation token until shortly before it expires (1 hour).
 */
export function githubTokenProvider(credentials: ForgeCredentials, apiUrl: string): () => Promise<string> {
  if (credentials.kind === 'token') return async () => credentials.token;
  const auth = createAppAuth({
    appId: credentials.appId,
    privateKey: credentials.privateKey,
    installationId: credentials.installationId,
    request: request.defaults({ baseUrl: apiUrl.replace(/\/+$/, '') }),
  });
  return async () => {
    try {
      const { token } = await auth({ type: 'installation' });
      rememberSecret(token);
      return token;
    } catch (error) {
      const status = (error as { status?: number }).status;
      const message = `GitHub App ${credentials.appId}: no installation token for installation ${credentials.installationId}: ${(error as Error).message}`;
      if (status !== undefined && status < 500) throw new ConfigError(message, { cause: error });
      throw new TransientApiError(message, { cause: error });
    }
  };
}
