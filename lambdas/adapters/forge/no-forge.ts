import type { Forge } from '../../ports/forge';
import { ConfigError } from '../../shared/errors';

/** No forge credentials configured: nothing is reported (ReportToForge says so instead of failing). */
export const NO_FORGE: Forge = {
  configured: false,
  setStatus: async () => {
    throw new ConfigError(
      'no forge configured: give forge credentials (clm serve --forge-credentials-file or --github-token-file; CDK context forgeSecretArn)',
    );
  },
  upsertComment: async () => {
    throw new ConfigError(
      'no forge configured: give forge credentials (clm serve --forge-credentials-file or --github-token-file; CDK context forgeSecretArn)',
    );
  },
};
