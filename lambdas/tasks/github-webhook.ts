import { HttpRequest, HttpResponse } from '../contracts/triggers';
import { pushAcceptedEvent } from '../core/webhook/push-accepted';
import { matchPush, sourceCommits } from '../core/webhook/push-match';
import {
  badSignature,
  DELIVERY_STALE_AFTER_MS,
  DELIVERY_TTL_MS,
  interpretDelivery,
  pushAnswer,
  readEnvelope,
  replayed,
  type WebhookResponse,
} from '../core/webhook/webhook-request';
import { defineTask, type PortsFor } from './define-task';

const PORTS = {
  webhooks: 'read',
  fleet: 'write',
  registry: 'read',
  sources: 'read',
  events: 'write',
  clock: 'read',
} as const;

/**
 * GitHub's webhook (POST, `application/json`, a secret, push events), answered well inside GitHub's 10 s: the
 * envelope, the signature over the raw body, the payload, the delivery id claimed once, the push matched to the
 * config sources of its repository and to the clusters following the ref (one registry read), the commit
 * recorded, and a PushAccepted event on which the dispatcher runs the pass. git, Step Functions and the starts
 * happen there, not here. The decisions and answers are lambdas/core/webhook/webhook-request.ts.
 */
export async function githubWebhook(request: HttpRequest, ports: PortsFor<typeof PORTS>): Promise<WebhookResponse> {
  const envelope = readEnvelope(request);
  if (!envelope.ok) return envelope.response;
  const { deliveryId, body, signature } = envelope.value;
  if (!(await ports.webhooks.verify(body, signature))) return badSignature(envelope.value);
  const delivery = interpretDelivery(envelope.value, ports.sources);
  if (delivery.kind === 'answered') return delivery.response;
  const now = ports.clock.now();
  const claim = await ports.fleet.claimDelivery(deliveryId, {
    now,
    ttlMs: DELIVERY_TTL_MS,
    staleAfterMs: DELIVERY_STALE_AFTER_MS,
  });
  if (!claim.claimed) return replayed(envelope.value, claim.firstSeenAt);
  const match = matchPush(delivery.push, ports.sources, await ports.registry.listClusters());
  for (const commit of sourceCommits(delivery.push, match, deliveryId, now)) await ports.fleet.recordCommit(commit);
  const dispatch = match.clusters.length > 0;
  if (dispatch) await ports.events.publish([pushAcceptedEvent(deliveryId, match)]);
  const answer = pushAnswer(envelope.value, match, dispatch ? { requested: true } : undefined);
  await ports.fleet.completeDelivery(deliveryId, now, String(answer.body.message));
  return answer;
}

export const task = defineTask({
  name: 'GithubWebhook',
  description: "GitHub's push webhook: verifies, deduplicates, matches and hands the pass to the dispatcher",
  input: HttpRequest,
  output: HttpResponse,
  ports: PORTS,
  lambda: { memoryMb: 512, timeoutSeconds: 10 },
  triggers: [{ kind: 'http' }],
  step: githubWebhook,
});
