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

/** The push payload for `push`; `recorded` is the recorded payload's text (default: read from its fixture file). */
export function pushBody(push: Push, recorded: string = fixtureText('push')): string {
  const payload = JSON.parse(recorded) as Record<string, unknown> & {
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
export async function deliverPush(url: string, push: Push, secret: string, recorded?: string): Promise<Delivery> {
  const body = pushBody(push, recorded);
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

/** MiniStack serves a Function URL `https://<id>.lambda-url.<region>.on.aws/` at `<endpoint>/_aws/lambda-url/<id>/`. */
export function functionUrlOnEmulator(endpoint: string, functionUrl: string): string {
  const id = /^https:\/\/([a-z0-9]+)\.lambda-url\./.exec(functionUrl)?.[1];
  if (!id) throw new Error(`not a Lambda Function URL: ${functionUrl}`);
  return `${endpoint}/_aws/lambda-url/${id}/`;
}
