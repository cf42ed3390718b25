import { ForgeWebhookVerifier } from '../../../adapters/webhook/forge-webhook-verifier';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { TASK_ENV } from '../task-environment';
import { secretBackedVerifier } from '../webhook-secret';

/** Port module of the webhook verifier: GitHub's, GitLab's and Bitbucket's under the secret in Secrets Manager (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return {
    webhooks: () =>
      secretBackedVerifier({
        secretId: env.required(TASK_ENV.webhookSecretArn),
        reader: async () => (await import('../secrets-manager-reader')).secretsManagerReader(env),
        build: (secrets) => new ForgeWebhookVerifier(secrets),
      }),
  };
}
