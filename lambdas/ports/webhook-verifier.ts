/**
 * Checks that a webhook delivery comes from the forge: over the raw body where the forge signs, the secret token where
 * it does not. Each answers false (never throws) for a bad or missing credential, and for a forge with no secret
 * configured.
 */
export interface WebhookVerifier {
  /** GitHub's `X-Hub-Signature-256` (`sha256=<hex>`): the HMAC-SHA256 of `body` under a configured secret. */
  verify(body: string, signature: string): Promise<boolean>;
  /** GitLab's `X-Gitlab-Token`: a configured token, compared in constant time. */
  verifyGitlab(token: string): Promise<boolean>;
  /** Bitbucket's `X-Hub-Signature` (`sha256=<hex>`): the HMAC-SHA256 of `body` under a configured secret. */
  verifyBitbucket(body: string, signature: string): Promise<boolean>;
}
