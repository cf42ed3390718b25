import { parseForgeCredentials } from '../../../adapters/forge/forge-credentials';
import { githubTokenProvider } from '../../../adapters/forge/github-app-token';
import { DEFAULT_GITHUB_API_URL, GithubForge } from '../../../adapters/forge/github-forge';
import { NO_FORGE } from '../../../adapters/forge/no-forge';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { TASK_ENV } from '../task-environment';

/** The forge credentials are read again after this long (a rotated token or App key takes effect within it). */
const CREDENTIALS_TTL_MS = 5 * 60_000;

/**
 * Port module of the forge: GitHub's API with the credentials of the secret `CLM_FORGE_SECRET_ARN` (a token, or a
 * GitHub App whose installation tokens @octokit/auth-app mints and caches); without that secret, no forge.
 */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  const secretId = env.optional(TASK_ENV.forgeSecretArn);
  if (!secretId) return { forge: () => NO_FORGE };
  const apiUrl = env.optional(TASK_ENV.githubApiUrl) ?? DEFAULT_GITHUB_API_URL;
  let cached: { at: number; token: Promise<() => Promise<string>> } | undefined;
  const provider = () => {
    if (!cached || Date.now() - cached.at >= CREDENTIALS_TTL_MS) {
      const entry = {
        at: Date.now(),
        token: import('../secrets-manager-reader')
          .then(({ secretsManagerReader }) => secretsManagerReader(env)(secretId))
          .then((text) => githubTokenProvider(parseForgeCredentials(text, `secret ${secretId}`), apiUrl)),
      };
      entry.token.catch(() => {
        if (cached === entry) cached = undefined;
      });
      cached = entry;
    }
    return cached.token;
  };
  return { forge: () => new GithubForge({ apiUrl, token: async () => (await provider())() }) };
}
