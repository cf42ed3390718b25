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
 * Bitbucket Data Center's push webhook (`X-Event-Key: repo:refs_changed`, Atlassian "Event payload"), signed with the
 * hook's secret: `X-Hub-Signature: sha256=<hex HMAC-SHA256 of the raw body>`; the delivery id is `X-Request-Id`. One
 * delivery may change several refs: each is a push. The repository is `PROJECT/slug`, as in its clone URL
 * (`…/scm/PROJECT/slug.git`).
 */
export const BITBUCKET_PUSH_EVENT = 'repo:refs_changed';

const sha = z.string().check(z.regex(/^[0-9a-f]{40}$/i, 'must be a 40-character commit SHA'));

export const BitbucketRefsChangedEvent = z.looseObject({
  eventKey: z.optional(z.string()),
  date: z.optional(z.string()),
  repository: z.looseObject({
    slug: z.string().check(z.minLength(1)),
    project: z.looseObject({ key: z.string().check(z.minLength(1)) }),
  }),
  changes: z
    .array(
      z.looseObject({
        refId: z.string().check(z.regex(/^refs\//, 'must be a full ref name')),
        fromHash: sha,
        toHash: sha,
        type: z.enum(['ADD', 'UPDATE', 'DELETE']),
      }),
    )
    .check(z.minLength(1)),
});
export type BitbucketRefsChangedEvent = z.infer<typeof BitbucketRefsChangedEvent>;

export function readBitbucketEnvelope(
  request: WebhookRequest,
  maxBodyBytes = DEFAULT_MAX_WEBHOOK_BODY_BYTES,
): Outcome<WebhookEnvelope> {
  const delivered = deliveryHeaders(request, 'Bitbucket', maxBodyBytes);
  if (!delivered.ok) return delivered;
  const header = delivered.value;
  const event = header['x-event-key'];
  const deliveryId = header['x-request-id'];
  if (!event) return refuse(400, 'missing header X-Event-Key');
  if (!deliveryId) return refuse(400, 'missing header X-Request-Id');
  if (!/^[A-Za-z0-9-]{1,100}$/.test(deliveryId)) return refuse(400, 'header X-Request-Id is not a UUID');
  const signature = header['x-hub-signature'];
  if (!signature) return refuse(401, 'unsigned delivery: no X-Hub-Signature; set a secret on the Bitbucket webhook');
  return {
    ok: true,
    value: {
      event,
      deliveryId: `bitbucket-${deliveryId}`,
      signature,
      contentType: 'application/json',
      body: request.body,
    },
  };
}

export function interpretBitbucketDelivery(envelope: WebhookEnvelope): Delivery {
  if (envelope.event !== BITBUCKET_PUSH_EVENT) {
    return { kind: 'answered', response: ignored(envelope, `only ${BITBUCKET_PUSH_EVENT} events start updates`) };
  }
  const read = readPayload(envelope, BitbucketRefsChangedEvent, 'not a repo:refs_changed payload');
  return read.ok ? { kind: 'push', pushes: bitbucketPushes(read.value) } : read.answer;
}

export function bitbucketPushes(event: BitbucketRefsChangedEvent): ForgePush[] {
  const repository = `${event.repository.project.key}/${event.repository.slug}`;
  const pushedAt = event.date ? Date.parse(event.date) : NaN;
  return event.changes.map((change) => ({
    repository,
    ref: change.refId,
    before: change.fromHash,
    after: change.type === 'DELETE' ? DELETED_REF_SHA : change.toHash,
    deleted: change.type === 'DELETE',
    ...(Number.isNaN(pushedAt) ? {} : { pushedAt }),
  }));
}
