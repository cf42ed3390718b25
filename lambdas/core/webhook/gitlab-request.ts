import * as z from '../../shared/zod';
import { DELETED_REF_SHA } from './github-events';
import type { ForgePush } from './push-match';
import {
  DEFAULT_MAX_WEBHOOK_BODY_BYTES,
  ignored,
  deliveryHeaders,
  readPayload,
  refuse,
  type Delivery,
  type Outcome,
  type WebhookEnvelope,
  type WebhookRequest,
} from './webhook-request';

/**
 * GitLab's push webhooks (docs.gitlab.com "Webhook events": Push Hook, Tag Push Hook). GitLab does not sign: it sends
 * the hook's secret token as it is in `X-Gitlab-Token`, which the verifier compares in constant time. The delivery id
 * is `Idempotency-Key` (the same on GitLab's retries, 17.4 and later), else `X-Gitlab-Event-UUID`.
 */
export const GITLAB_PUSH_EVENTS = ['Push Hook', 'Tag Push Hook'] as const;

const sha = z.string().check(z.regex(/^[0-9a-f]{40}$/i, 'must be a 40-character commit SHA'));

export const GitlabPushEvent = z.looseObject({
  object_kind: z.enum(['push', 'tag_push']),
  ref: z.string().check(z.regex(/^refs\//, 'must be a full ref name (refs/heads/…, refs/tags/…)')),
  before: sha,
  after: sha,
  checkout_sha: z.nullish(z.string()),
  project: z.looseObject({
    /** `group/subgroup/name`. */
    path_with_namespace: z.string().check(z.regex(/^[^\s]+\/[^\s]+$/, 'must be group/name')),
    git_http_url: z.optional(z.string()),
  }),
  commits: z.optional(z.array(z.looseObject({ id: z.string(), timestamp: z.optional(z.string()) }))),
  total_commits_count: z.optional(z.number()),
});
export type GitlabPushEvent = z.infer<typeof GitlabPushEvent>;

/** Method, size and headers; the token is the envelope's `signature` (what the verifier checks). */
export function readGitlabEnvelope(
  request: WebhookRequest,
  maxBodyBytes = DEFAULT_MAX_WEBHOOK_BODY_BYTES,
): Outcome<WebhookEnvelope> {
  const delivered = deliveryHeaders(request, 'GitLab', maxBodyBytes);
  if (!delivered.ok) return delivered;
  const header = delivered.value;
  const event = header['x-gitlab-event'];
  const deliveryId = header['idempotency-key'] ?? header['x-gitlab-event-uuid'];
  if (!event) return refuse(400, 'missing header X-Gitlab-Event');
  if (!deliveryId)
    return refuse(400, 'missing header Idempotency-Key / X-Gitlab-Event-UUID (GitLab 15.9 or later sends it)');
  if (!/^[A-Za-z0-9-]{1,100}$/.test(deliveryId)) return refuse(400, 'the delivery id header is not a UUID');
  const token = header['x-gitlab-token'];
  if (!token) return refuse(401, 'no X-Gitlab-Token: set a secret token on the GitLab webhook');
  return {
    ok: true,
    value: {
      event,
      deliveryId: `gitlab-${deliveryId}`,
      signature: token,
      contentType: 'application/json',
      body: request.body,
    },
  };
}

/** A verified GitLab delivery: its push, or the answer (other events ignored, a bad body 400). */
export function interpretGitlabDelivery(envelope: WebhookEnvelope): Delivery {
  if (!(GITLAB_PUSH_EVENTS as readonly string[]).includes(envelope.event)) {
    return {
      kind: 'answered',
      response: ignored(envelope, `only ${GITLAB_PUSH_EVENTS.join(' and ')} events start updates`),
    };
  }
  const read = readPayload(envelope, GitlabPushEvent, 'not a GitLab push payload');
  return read.ok ? { kind: 'push', pushes: [gitlabPush(read.value)] } : read.answer;
}

export function gitlabPush(event: GitlabPushEvent): ForgePush {
  const newest = event.commits?.find((c) => c.id === event.after)?.timestamp;
  const pushedAt = newest ? Date.parse(newest) : NaN;
  return {
    repository: event.project.path_with_namespace,
    ref: event.ref,
    before: event.before,
    after: event.after,
    deleted: event.after === DELETED_REF_SHA,
    ...(Number.isNaN(pushedAt) ? {} : { pushedAt }),
  };
}
