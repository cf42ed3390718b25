/** Checks a webhook's signature over the raw body (GitHub's `X-Hub-Signature-256`). */
export interface WebhookVerifier {
  /** True when `signature` (`sha256=<hex>`) is the HMAC of `body` under a configured secret. Never throws for a bad signature. */
  verify(body: string, signature: string): Promise<boolean>;
}
