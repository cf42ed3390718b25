import { HttpRequest, HttpResponse } from '../contracts/triggers';
import type { FleetEvent } from '../contracts/fleet-events';
import { interpretBitbucketDelivery, readBitbucketEnvelope } from '../core/webhook/bitbucket-request';
import { interpretGitlabDelivery, readGitlabEnvelope } from '../core/webhook/gitlab-request';
import { pushAcceptedEvent } from '../core/webhook/push-accepted';
import { clustersFollowing, matchPush, sourceCommits, type ForgePush } from '../core/webhook/push-match';
import type { PullRequestNotice } from '../core/webhook/pull-request';
import {
  badSignature,
  DELIVERY_STALE_AFTER_MS,
  DELIVERY_TTL_MS,
  interpretDelivery,
  pushAnswer,
  readEnvelope,
  refuse,
  replayed,
  type Delivery,
  type Outcome,
  type WebhookEnvelope,
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
type WebhookPorts = PortsFor<typeof PORTS>;

/** Where each forge delivers: the same endpoint, the forge named by the path's last segment. */
export const WEBHOOK_FORGES = ['github', 'gitlab', 'bitbucket'] as const;
type WebhookForge = (typeof WEBHOOK_FORGES)[number];

/**
 * The forges' webhooks (POST, JSON), answered well inside their 10 s: `/webhooks/github` (push, and pull_request for a
 * plan), `/webhooks/gitlab` (Push Hook, Tag Push Hook), `/webhooks/bitbucket` (repo:refs_changed); any other path is
 * GitHub's, as before. The envelope, the credential (GitHub's and Bitbucket's signature over the raw body, GitLab's
 * token), the payload, the delivery id claimed once, the push matched to the config sources of its repository and to
 * the clusters following the ref (one registry read), the commit recorded, and a PushAccepted event on which the
 * dispatcher runs the pass; a pull request whose base branch clusters follow, a PullRequestAccepted event on which
 * PlanPullRequest starts the plans. git, Step Functions and the starts happen there, not here. The decisions and
 * answers are lambdas/core/webhook/.
 */
export async function githubWebhook(request: HttpRequest, ports: WebhookPorts): Promise<WebhookResponse> {
  const forge = forgeOf(request.path);
  if (!forge)
    return refuse(404, `no webhook at ${request.path}: POST /webhooks/github, /webhooks/gitlab or /webhooks/bitbucket`)
      .response;
  const envelope = readForgeEnvelope(forge, request);
  if (!envelope.ok) return envelope.response;
  const { deliveryId, body, signature } = envelope.value;
  if (!(await verified(forge, ports, body, signature))) return badCredential(forge, envelope.value);
  const delivery = interpret(forge, envelope.value, ports);
  if (delivery.kind === 'answered') return delivery.response;
  const now = ports.clock.now();
  const claim = await ports.fleet.claimDelivery(deliveryId, {
    now,
    ttlMs: DELIVERY_TTL_MS,
    staleAfterMs: DELIVERY_STALE_AFTER_MS,
  });
  if (!claim.claimed) return replayed(envelope.value, claim.firstSeenAt);
  const answer =
    delivery.kind === 'push'
      ? await acceptPushes(delivery.pushes, deliveryId, now, ports)
      : await acceptPullRequest(delivery.pullRequest, deliveryId, ports);
  await ports.fleet.completeDelivery(deliveryId, now, String(answer.body.message));
  return answer;
}

function forgeOf(path: string): WebhookForge | undefined {
  const last = path.split('?')[0].replace(/\/+$/, '').split('/').at(-1) ?? '';
  if ((WEBHOOK_FORGES as readonly string[]).includes(last)) return last as WebhookForge;
  return path.startsWith('/webhooks/') ? undefined : 'github';
}

function readForgeEnvelope(forge: WebhookForge, request: HttpRequest): Outcome<WebhookEnvelope> {
  if (forge === 'gitlab') return readGitlabEnvelope(request);
  if (forge === 'bitbucket') return readBitbucketEnvelope(request);
  return readEnvelope(request);
}

function verified(forge: WebhookForge, ports: WebhookPorts, body: string, credential: string): Promise<boolean> {
  if (forge === 'gitlab') return ports.webhooks.verifyGitlab(credential);
  if (forge === 'bitbucket') return ports.webhooks.verifyBitbucket(body, credential);
  return ports.webhooks.verify(body, credential);
}

function badCredential(forge: WebhookForge, envelope: WebhookEnvelope): WebhookResponse {
  if (forge !== 'gitlab') return badSignature(envelope);
  return { status: 401, body: { error: 'X-Gitlab-Token is not the configured token', delivery: envelope.deliveryId } };
}

function interpret(forge: WebhookForge, envelope: WebhookEnvelope, ports: WebhookPorts): Delivery {
  if (forge === 'gitlab') return interpretGitlabDelivery(envelope);
  if (forge === 'bitbucket') return interpretBitbucketDelivery(envelope);
  return interpretDelivery(envelope, ports.sources);
}

/** Record and announce each push (Bitbucket may report several refs in one delivery); answer with the first that matched. */
async function acceptPushes(
  pushes: readonly ForgePush[],
  deliveryId: string,
  now: number,
  ports: WebhookPorts,
): Promise<WebhookResponse> {
  const clusters = await ports.registry.listClusters();
  const events: FleetEvent[] = [];
  const answers: WebhookResponse[] = [];
  for (const push of pushes) {
    const match = matchPush(push, ports.sources, clusters);
    for (const commit of sourceCommits(push, match, deliveryId, now)) await ports.fleet.recordCommit(commit);
    const dispatch = match.clusters.length > 0;
    if (dispatch) events.push(pushAcceptedEvent(deliveryId, match));
    answers.push(pushAnswer({ deliveryId }, match, dispatch ? { requested: true } : undefined));
  }
  if (events.length) await ports.events.publish(events);
  const first = answers.find((a) => Number(a.body.affected) > 0) ?? answers[0]!;
  return answers.length === 1 ? first : { status: 202, body: { ...first.body, refs: answers.length } };
}

async function acceptPullRequest(
  pr: PullRequestNotice,
  deliveryId: string,
  ports: WebhookPorts,
): Promise<WebhookResponse> {
  const following = clustersFollowing(pr.repository, pr.base, ports.sources, await ports.registry.listClusters());
  const what = `pull request #${pr.number} of ${pr.repository} (${pr.head.slice(0, 12)} into ${pr.base})`;
  const body = {
    delivery: deliveryId,
    repository: pr.repository,
    number: pr.number,
    head: pr.head,
    base: pr.base,
    sources: following.sources,
    affected: following.clusters.length,
    clusters: following.clusters.slice(0, 100),
  };
  if (!following.clusters.length) {
    const why = following.sources.length
      ? 'no cluster follows its base branch'
      : 'its repository feeds no git config source';
    return { status: 202, body: { ...body, ignored: true, message: `${what}: ${why}; nothing to plan` } };
  }
  await ports.events.publish([
    {
      type: 'PullRequestAccepted',
      detail: {
        repository: pr.repository,
        number: pr.number,
        head: pr.head,
        base: pr.base,
        ...(pr.url ? { url: pr.url } : {}),
        deliveryId,
        affected: following.clusters.length,
        clusters: following.clusters.slice(0, 100),
      },
    },
  ]);
  return {
    status: 202,
    body: {
      ...body,
      plan: 'requested',
      message: `${what}: ${following.clusters.length} cluster(s) to plan, plan requested`,
    },
  };
}

export const task = defineTask({
  name: 'GithubWebhook',
  description:
    "The forges' webhooks (GitHub, GitLab, Bitbucket): verifies, deduplicates, matches, hands on pushes and PRs",
  input: HttpRequest,
  output: HttpResponse,
  ports: PORTS,
  lambda: { memoryMb: 512, timeoutSeconds: 10 },
  triggers: [{ kind: 'http' }],
  step: githubWebhook,
});
