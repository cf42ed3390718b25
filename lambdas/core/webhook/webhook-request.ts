import type * as z from '../../shared/zod';
import type { ConfigSourceSpec } from '../model/config-source-spec';
import { GithubPingEvent, GithubPullRequestEvent, GithubPushEvent } from './github-events';
import { githubPush, sourcesForRepository } from './push-match';
import type { ForgePush, PushMatch } from './push-match';
import { pullRequestNotice, type PullRequestNotice } from './pull-request';

/**
 * The GitHub webhook endpoint's decisions, pure. The caller runs them in this order, and stops at the
 * first response:
 *
 *   readEnvelope      400 missing X-GitHub-Event / X-GitHub-Delivery, body empty or over the limit; 401 unsigned
 *   (verify the X-Hub-Signature-256 over the raw body: WebhookVerifier)              401 wrong signature
 *   interpretDelivery 400 malformed JSON or a push that is not one; 200 ping; 202 other events ignored
 *   (claim the delivery id: FleetStore.claimDelivery)                                401 replayed
 *   matchPush, record the commit, dispatch                                           202 with what matched
 *
 * Nothing is parsed before the signature is checked, and nothing is recorded for a response below 200.
 */

export interface WebhookRequest {
  readonly method?: string;
  /** Header names in any case. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The raw body, exactly as received (the signature covers these bytes). */
  readonly body: string;
}

export interface WebhookResponse {
  readonly status: 200 | 202 | 400 | 401 | 404 | 405;
  readonly body: Readonly<Record<string, unknown>>;
}

export interface WebhookEnvelope {
  readonly event: string;
  readonly deliveryId: string;
  /** `sha256=<hex>`. */
  readonly signature: string;
  readonly contentType: string;
  readonly body: string;
}

/** GitHub caps payloads at 25 MB; a Lambda Function URL takes 6 MB. Pushes of many commits stay far below this. */
export const DEFAULT_MAX_WEBHOOK_BODY_BYTES = 4 * 1024 * 1024;

/** How long an accepted delivery id is remembered (GitHub redelivers from the last 3 days). */
export const DELIVERY_TTL_MS = 3 * 24 * 3_600_000;
/** A claim on a delivery id never finished (the handler died) may be taken over after this long. */
export const DELIVERY_STALE_AFTER_MS = 15 * 60_000;

export type Outcome<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly response: WebhookResponse };

/**
 * What every forge's delivery must be before its headers are read: a POST with a body within the limit (an empty one is
 * said as what it is, not as a signature that does not match: every forge sends a JSON payload). Its headers, lower-cased.
 */
export function deliveryHeaders(
  request: WebhookRequest,
  forge: 'GitHub' | 'GitLab' | 'Bitbucket',
  maxBodyBytes: number,
): Outcome<Record<string, string | undefined>> {
  if (request.method !== undefined && request.method.toUpperCase() !== 'POST') {
    return refuse(405, `method ${request.method} is not allowed; ${forge} delivers with POST`);
  }
  const size = Buffer.byteLength(request.body, 'utf8');
  if (size > maxBodyBytes) return refuse(400, `body is ${size} bytes, over the limit of ${maxBodyBytes}`);
  if (size === 0) return refuse(400, `empty body: a ${forge} delivery carries a JSON payload`);
  return { ok: true, value: lowerCaseHeaders(request.headers) };
}

/** Check method, size and headers; nothing of the body is read yet. */
export function readEnvelope(
  request: WebhookRequest,
  maxBodyBytes = DEFAULT_MAX_WEBHOOK_BODY_BYTES,
): Outcome<WebhookEnvelope> {
  const delivered = deliveryHeaders(request, 'GitHub', maxBodyBytes);
  if (!delivered.ok) return delivered;
  const header = delivered.value;
  const event = header['x-github-event'];
  const deliveryId = header['x-github-delivery'];
  if (!event) return refuse(400, 'missing header X-GitHub-Event');
  if (!deliveryId) return refuse(400, 'missing header X-GitHub-Delivery');
  if (!/^[A-Za-z0-9-]{1,100}$/.test(deliveryId)) return refuse(400, 'header X-GitHub-Delivery is not a delivery id');
  const signature = header['x-hub-signature-256'];
  if (!signature) {
    return refuse(401, 'unsigned delivery: no X-Hub-Signature-256; set a secret on the GitHub webhook');
  }
  const contentType = (header['content-type'] ?? 'application/json').split(';')[0].trim().toLowerCase();
  return { ok: true, value: { event, deliveryId, signature, contentType, body: request.body } };
}

/** The answer when the signature does not match. */
export function badSignature(envelope: Pick<WebhookEnvelope, 'deliveryId'>): WebhookResponse {
  return {
    status: 401,
    body: {
      error: 'signature does not match the payload and the configured secret',
      delivery: envelope.deliveryId,
    },
  };
}

/** The answer to a delivery id already accepted (a replay, or GitHub redelivering one we handled). */
export function replayed(envelope: Pick<WebhookEnvelope, 'deliveryId'>, firstSeenAt: number): WebhookResponse {
  return {
    status: 401,
    body: {
      error: `delivery ${envelope.deliveryId} was already accepted at ${new Date(firstSeenAt).toISOString()}; nothing done again`,
      delivery: envelope.deliveryId,
    },
  };
}

export type Delivery =
  | { readonly kind: 'push'; readonly pushes: readonly ForgePush[] }
  | { readonly kind: 'pull-request'; readonly pullRequest: PullRequestNotice }
  | { readonly kind: 'answered'; readonly response: WebhookResponse };

/**
 * A verified delivery, read: a push to act on, or the answer for everything else (ping: 200 saying which
 * config sources the repository feeds; any other event: 202 ignored; a bad body: 400).
 */
export function interpretDelivery(envelope: WebhookEnvelope, sources: readonly ConfigSourceSpec[]): Delivery {
  const answered = (response: WebhookResponse): Delivery => ({ kind: 'answered', response });
  if (envelope.event !== 'push' && envelope.event !== 'ping' && envelope.event !== 'pull_request') {
    return answered(ignored(envelope, 'only push events start updates (and pull_request events plans)'));
  }
  const json = payloadText(envelope);
  if (!json.ok) return answered(json.response);
  let payload: unknown;
  try {
    payload = JSON.parse(json.value);
  } catch (error) {
    return answered(invalid(envelope, `body is not valid JSON: ${(error as Error).message}`));
  }
  if (envelope.event === 'ping') {
    const ping = GithubPingEvent.safeParse(payload);
    if (!ping.success) return answered(invalid(envelope, 'not a ping payload', ping.error));
    return answered(pingAnswer(envelope, ping.data, sources));
  }
  if (envelope.event === 'pull_request') {
    const event = GithubPullRequestEvent.safeParse(payload);
    if (!event.success) return answered(invalid(envelope, 'not a pull_request payload', event.error));
    const notice = pullRequestNotice(event.data);
    return 'ignored' in notice
      ? answered(ignored(envelope, notice.ignored))
      : { kind: 'pull-request', pullRequest: notice };
  }
  const push = GithubPushEvent.safeParse(payload);
  if (!push.success) return answered(invalid(envelope, 'not a push payload', push.error));
  return { kind: 'push', pushes: [githubPush(push.data)] };
}

/** 202: a verified delivery CLM does nothing with. */
export function ignored(envelope: Pick<WebhookEnvelope, 'event' | 'deliveryId'>, message: string): WebhookResponse {
  return { status: 202, body: { ignored: true, event: envelope.event, delivery: envelope.deliveryId, message } };
}

const MAX_LISTED_CLUSTERS = 100;

/** What became of the pass a push asked for: run inline (what started), or handed off to the dispatcher. */
export type PushDispatch =
  { readonly started: readonly string[]; readonly skipped: number } | { readonly requested: true };

/**
 * The answer to an accepted push: what it matched and, when the pass ran, what started (or that the pass was
 * handed off). 202: the updates themselves run on.
 */
export function pushAnswer(
  envelope: Pick<WebhookEnvelope, 'deliveryId'>,
  match: PushMatch,
  dispatched?: PushDispatch,
): WebhookResponse {
  const what = `push to ${match.ref} of ${match.repository} (${match.deleted ? 'deleted' : match.commit.slice(0, 12)})`;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const outcome = !dispatched
    ? ''
    : 'requested' in dispatched
      ? ', dispatch requested'
      : `, ${plural(dispatched.started.length, 'update')} started`;
  const message = !match.sources.length
    ? `${what} matches no git config source`
    : `${what} feeds config source${match.sources.length > 1 ? 's' : ''} ${match.sources.join(', ')}: ${plural(match.clusters.length, 'cluster')} follow the ref${outcome}`;
  const dispatch = !dispatched
    ? {}
    : 'requested' in dispatched
      ? { dispatch: 'requested' }
      : { started: dispatched.started.slice(0, MAX_LISTED_CLUSTERS), skipped: dispatched.skipped };
  return {
    status: 202,
    body: {
      delivery: envelope.deliveryId,
      repository: match.repository,
      ref: match.ref,
      commit: match.commit,
      sources: [...match.sources],
      affected: match.clusters.length,
      clusters: match.clusters.slice(0, MAX_LISTED_CLUSTERS),
      ...dispatch,
      ...(match.problems.length ? { problems: match.problems.slice(0, 10) } : {}),
      message,
    },
  };
}

function pingAnswer(
  envelope: WebhookEnvelope,
  ping: GithubPingEvent,
  sources: readonly ConfigSourceSpec[],
): WebhookResponse {
  const repository = ping.repository?.full_name;
  const matched = repository ? sourcesForRepository(sources, repository).map((s) => s.name) : [];
  const events = ping.hook?.events;
  const pushes = !events || events.includes('push') || events.includes('*');
  const message = !repository
    ? 'pong; an organization hook: pushes match config sources by repository'
    : matched.length
      ? `pong; pushes to ${repository} update config source${matched.length > 1 ? 's' : ''} ${matched.join(', ')}`
      : `pong; but ${repository} is not the repository of any git config source`;
  return {
    status: 200,
    body: {
      zen: ping.zen,
      hookId: ping.hook_id,
      delivery: envelope.deliveryId,
      ...(repository ? { repository, sources: matched } : {}),
      message: pushes ? message : `${message}; the hook does not send push events: select "Just the push event"`,
    },
  };
}

/** GitHub sends JSON, or (content type "application/x-www-form-urlencoded") the JSON in a `payload` field. */
function payloadText(envelope: WebhookEnvelope): Outcome<string> {
  if (envelope.contentType !== 'application/x-www-form-urlencoded') return { ok: true, value: envelope.body };
  const payload = new URLSearchParams(envelope.body).get('payload');
  if (payload === null) return { ok: false, response: invalid(envelope, 'form body without a payload field') };
  return { ok: true, value: payload };
}

export function invalid(
  envelope: Pick<WebhookEnvelope, 'event' | 'deliveryId'>,
  message: string,
  error?: z.core.$ZodError,
): WebhookResponse {
  const issues = error?.issues.slice(0, 10).map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`);
  return {
    status: 400,
    body: { error: message, event: envelope.event, delivery: envelope.deliveryId, ...(issues ? { issues } : {}) },
  };
}

export function refuse(status: WebhookResponse['status'], error: string): { ok: false; response: WebhookResponse } {
  return { ok: false, response: { status, body: { error } } };
}

export function lowerCaseHeaders(
  headers: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const lower: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
  return lower;
}

/** A delivery's JSON body read with `schema` (GitLab's and Bitbucket's pushes), or the 400 answer saying what is wrong. */
export function readPayload<T>(
  envelope: WebhookEnvelope,
  schema: z.ZodMiniType<T>,
  what: string,
): { readonly ok: true; readonly value: T } | { readonly ok: false; readonly answer: Delivery } {
  let payload: unknown;
  try {
    payload = JSON.parse(envelope.body);
  } catch (error) {
    const response = invalid(envelope, `body is not valid JSON: ${(error as Error).message}`);
    return { ok: false, answer: { kind: 'answered', response } };
  }
  const read = schema.safeParse(payload);
  return read.success
    ? { ok: true, value: read.data }
    : { ok: false, answer: { kind: 'answered', response: invalid(envelope, what, read.error) } };
}
