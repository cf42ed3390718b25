import { Webhooks } from '@octokit/webhooks';
import type { WebhookVerifier } from '../../ports/webhook-verifier';
import { ConfigError } from '../../shared/errors';

/**
 * GitHub's `X-Hub-Signature-256` checked with @octokit/webhooks (HMAC-SHA256 of the raw body, compared in
 * constant time). Several secrets may be given while one is rotated: the signature is accepted under any
 * of them. A malformed signature is a mismatch, not an error.
 */
export class OctokitWebhookVerifier implements Pick<WebhookVerifier, 'verify'> {
  private readonly hooks: Webhooks[];

  constructor(secrets: readonly string[]) {
    const usable = secrets.map((s) => s.trim()).filter(Boolean);
    if (usable.length === 0)
      throw new ConfigError('webhook secret is empty: set the secret GitHub signs deliveries with');
    this.hooks = usable.map((secret) => new Webhooks({ secret }));
  }

  async verify(body: string, signature: string): Promise<boolean> {
    if (!/^sha256=[0-9a-f]{64}$/i.test(signature) || body === '') return false;
    for (const hooks of this.hooks) {
      if (await hooks.verify(body, signature.toLowerCase())) return true;
    }
    return false;
  }
}
