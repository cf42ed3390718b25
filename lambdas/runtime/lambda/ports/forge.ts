import { parseForgeSecret } from '../../../adapters/forge/forge-secret';
import { forgesFromSecret } from '../../../adapters/forge/forges-from-secret';
import { NO_FORGE } from '../../../adapters/forge/no-forge';
import type { Forge } from '../../../ports/forge';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { TASK_ENV } from '../task-environment';

/** The forge credentials are read again after this long (a rotated token or App key takes effect within it). */
const CREDENTIALS_TTL_MS = 5 * 60_000;

/**
 * Port module of the forge: the forges the secret `CLM_FORGE_SECRET_ARN` names (forge-secret.ts: a GitHub token or
 * App as before, or per-forge entries for GitHub, GitLab and Bitbucket), each commit status sent to the forge of its
 * config source's host; `CLM_GITHUB_API_URL` is GitHub's API when the secret names none. Without that secret, no forge.
 */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  const secretId = env.optional(TASK_ENV.forgeSecretArn);
  if (!secretId) return { forge: () => NO_FORGE };
  const githubApiUrl = env.optional(TASK_ENV.githubApiUrl);
  let cached: { at: number; forge: Promise<Forge> } | undefined;
  const current = (): Promise<Forge> => {
    if (!cached || Date.now() - cached.at >= CREDENTIALS_TTL_MS) {
      const entry = {
        at: Date.now(),
        forge: import('../secrets-manager-reader')
          .then(({ secretsManagerReader }) => secretsManagerReader(env)(secretId))
          .then((text) =>
            forgesFromSecret(parseForgeSecret(text, `secret ${secretId}`), githubApiUrl ? { githubApiUrl } : {}),
          ),
      };
      entry.forge.catch(() => {
        if (cached === entry) cached = undefined;
      });
      cached = entry;
    }
    return cached.forge;
  };
  const forge: Forge = {
    configured: true,
    setStatus: async (status) => (await current()).setStatus(status),
    upsertComment: async (repository, number, marker, body) =>
      (await current()).upsertComment(repository, number, marker, body),
  };
  return { forge: () => forge };
}
