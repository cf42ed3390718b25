/**
 * A GitHub push delivery as GitHub sends it: the recorded push payload (test/core/webhook/fixtures/push.json) for
 * the pushed commit, its headers, and `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with the hook's secret).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { fixtureText, headers } from '../../core/webhook/payloads';

export interface Push {
  readonly ref: string;
  readonly before: string;
  readonly after: string;
}

export function pushBody(push: Push): string {
  const payload = JSON.parse(fixtureText('push')) as Record<string, unknown> & {
    head_commit: Record<string, unknown>;
    commits: Record<string, unknown>[];
  };
  const commit = { ...payload.head_commit, id: push.after, tree_id: push.after };
  return JSON.stringify({
    ...payload,
    ref: push.ref,
    before: push.before,
    after: push.after,
    head_commit: commit,
    commits: [commit],
  });
}

export function signature(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface Delivery {
  readonly id: string;
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** POST a push to the webhook URL, signed with `secret`. */
export async function deliverPush(url: string, push: Push, secret: string): Promise<Delivery> {
  const body = pushBody(push);
  const id = randomUUID();
  const response = await fetch(url, { method: 'POST', headers: headers('push', id, signature(body, secret)), body });
  const text = await response.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text };
  }
  return { id, status: response.status, body: parsed };
}
