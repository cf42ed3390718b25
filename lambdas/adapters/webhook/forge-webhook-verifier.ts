import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookVerifier } from '../../ports/webhook-verifier';
import { ConfigError } from '../../shared/errors';
import { OctokitWebhookVerifier } from './octokit-webhook-verifier';

/** The secrets each forge's deliveries are checked with; several per forge while one is rotated. */
export interface WebhookSecrets {
  readonly github: readonly string[];
  readonly gitlab: readonly string[];
  readonly bitbucket: readonly string[];
}

/**
 * GitHub's signature with @octokit/webhooks; GitLab's token and Bitbucket's signature with node:crypto, compared in
 * constant time (GitLab's token through its SHA-256, so neither its content nor its length leaks). A forge without a
 * secret refuses every delivery.
 */
export class ForgeWebhookVerifier implements WebhookVerifier {
  private readonly github?: OctokitWebhookVerifier;
  private readonly gitlab: Buffer[];
  private readonly bitbucket: string[];

  constructor(secrets: WebhookSecrets) {
    const usable = (list: readonly string[]) => list.map((s) => s.trim()).filter(Boolean);
    if (!usable(secrets.github).length && !usable(secrets.gitlab).length && !usable(secrets.bitbucket).length) {
      throw new ConfigError('no webhook secret: give the secret of GitHub, GitLab or Bitbucket deliveries');
    }
    if (usable(secrets.github).length) this.github = new OctokitWebhookVerifier(usable(secrets.github));
    this.gitlab = usable(secrets.gitlab).map(digest);
    this.bitbucket = usable(secrets.bitbucket);
  }

  async verify(body: string, signature: string): Promise<boolean> {
    return this.github ? this.github.verify(body, signature) : false;
  }

  async verifyGitlab(token: string): Promise<boolean> {
    const given = digest(token);
    let match = false;
    for (const expected of this.gitlab) match = timingSafeEqual(given, expected) || match;
    return match;
  }

  async verifyBitbucket(body: string, signature: string): Promise<boolean> {
    const hex = /^sha256=([0-9a-f]{64})$/i.exec(signature)?.[1];
    if (!hex || body === '') return false;
    const given = Buffer.from(hex.toLowerCase(), 'hex');
    let match = false;
    for (const secret of this.bitbucket) {
      match = timingSafeEqual(given, createHmac('sha256', secret).update(body, 'utf8').digest()) || match;
    }
    return match;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
