import { createHmac } from 'node:crypto';
import { OctokitWebhookVerifier } from '../../../lambdas/adapters/webhook/octokit-webhook-verifier';
import { ConfigError } from '../../../lambdas/shared/errors';
import { fixtureText } from '../../core/webhook/payloads';

/** What GitHub computes: HMAC-SHA256 of the raw body under the webhook secret, hex. */
function sign(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

describe('OctokitWebhookVerifier', () => {
  const secret = 'whsec-7f3c9a1e5b';
  const body = fixtureText('push');

  it("accepts GitHub's documented example delivery", async () => {
    // docs.github.com, "Validating webhook deliveries": secret, payload and the signature GitHub sends.
    const verifier = new OctokitWebhookVerifier(["It's a Secret to Everybody"]);
    await expect(
      verifier.verify('Hello, World!', 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17'),
    ).resolves.toBe(true);
  });

  it('accepts a push signed with the secret, byte for byte', async () => {
    const verifier = new OctokitWebhookVerifier([secret]);
    await expect(verifier.verify(body, sign(secret, body))).resolves.toBe(true);
    await expect(verifier.verify(body, sign(secret, body).toUpperCase().replace('SHA256=', 'sha256='))).resolves.toBe(
      true,
    );
  });

  it('refuses a wrong secret, a changed body, and malformed or empty signatures', async () => {
    const verifier = new OctokitWebhookVerifier([secret]);
    await expect(verifier.verify(body, sign('another-secret', body))).resolves.toBe(false);
    await expect(verifier.verify(body.replace('main', 'mian'), sign(secret, body))).resolves.toBe(false);
    await expect(verifier.verify(`${body} `, sign(secret, body))).resolves.toBe(false);
    const sha1 = `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
    for (const signature of [sha1, 'sha256=', 'sha256=abc', '', sign(secret, body).slice(0, -1)]) {
      await expect(verifier.verify(body, signature)).resolves.toBe(false);
    }
    await expect(verifier.verify('', sign(secret, ''))).resolves.toBe(false);
  });

  it('accepts either secret while one is being rotated', async () => {
    const verifier = new OctokitWebhookVerifier(['new-secret', 'old-secret\n']);
    await expect(verifier.verify(body, sign('old-secret', body))).resolves.toBe(true);
    await expect(verifier.verify(body, sign('new-secret', body))).resolves.toBe(true);
    await expect(verifier.verify(body, sign('third', body))).resolves.toBe(false);
  });

  it('refuses to start without a secret', () => {
    expect(() => new OctokitWebhookVerifier(['', '  \n'])).toThrow(ConfigError);
  });
});
