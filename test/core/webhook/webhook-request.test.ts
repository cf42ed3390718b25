import { createHmac } from 'node:crypto';
import type { ConfigSourceSpec } from '../../../lambdas/core/model/config-source-spec';
import { interpretDelivery, pushAnswer, readEnvelope, replayed } from '../../../lambdas/core/webhook/webhook-request';
import type { WebhookEnvelope } from '../../../lambdas/core/webhook/webhook-request';
import { fixtureText, headers, pushPayload } from './payloads';

const SIGNATURE = `sha256=${'ab'.repeat(32)}`;
const sources: ConfigSourceSpec[] = [
  { name: 'main', kind: 'git', location: 'https://github.com/acme/cluster-config.git' },
  { name: 'local', kind: 'dir', location: 'config' },
];

function envelope(event: string, body: string, contentType = 'application/json'): WebhookEnvelope {
  return { event, deliveryId: 'd-1', signature: SIGNATURE, contentType, body };
}

describe('readEnvelope', () => {
  const body = fixtureText('push');

  it('reads event, delivery id, signature and content type from headers in any case', () => {
    const result = readEnvelope({
      method: 'POST',
      headers: headers('push', '72d3162e-cc78-11e3-81ab-4c9367dc0958', SIGNATURE),
      body,
    });
    expect(result).toEqual({
      ok: true,
      value: {
        event: 'push',
        deliveryId: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
        signature: SIGNATURE,
        contentType: 'application/json',
        body,
      },
    });
  });

  it.each([
    ['X-GitHub-Event', 400, /missing header X-GitHub-Event/],
    ['X-GitHub-Delivery', 400, /missing header X-GitHub-Delivery/],
    ['X-Hub-Signature-256', 401, /unsigned delivery/],
  ])('answers a request without %s with %i', (missing, status, error) => {
    const all = headers('push', 'd-1', SIGNATURE);
    delete all[missing];
    const result = readEnvelope({ method: 'POST', headers: all, body });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.response.status).toBe(status);
    expect(String(result.response.body.error)).toMatch(error);
  });

  it('refuses a body over the limit with 400, counting bytes not characters', () => {
    const big = JSON.stringify({ text: 'é'.repeat(600) }); // 1,200+ bytes, ~610 characters
    const result = readEnvelope({ method: 'POST', headers: headers('push', 'd-1', SIGNATURE), body: big }, 1000);
    expect(result).toMatchObject({ ok: false, response: { status: 400 } });
    if (!result.ok) expect(result.response.body.error).toMatch(/^body is 12\d\d bytes, over the limit of 1000$/);
    expect(readEnvelope({ method: 'POST', headers: headers('push', 'd-1', SIGNATURE), body: big }, 2000).ok).toBe(true);
  });

  it('refuses other methods and odd delivery ids', () => {
    expect(readEnvelope({ method: 'GET', headers: headers('push', 'd-1', SIGNATURE), body: '' })).toMatchObject({
      ok: false,
      response: { status: 405 },
    });
    expect(readEnvelope({ headers: headers('push', '../../etc', SIGNATURE), body })).toMatchObject({
      ok: false,
      response: { status: 400 },
    });
  });

  it('answers an empty body, correctly signed, with 400 saying it is empty (not with a signature mismatch)', () => {
    const signed = `sha256=${createHmac('sha256', 'whsec-empty').update('').digest('hex')}`;
    const result = readEnvelope({ method: 'POST', headers: headers('push', 'd-1', signed), body: '' });
    expect(result).toEqual({
      ok: false,
      response: { status: 400, body: { error: 'empty body: a GitHub delivery carries a JSON payload' } },
    });
  });
});

describe('interpretDelivery', () => {
  it('reads a push', () => {
    const delivery = interpretDelivery(envelope('push', fixtureText('push')), sources);
    expect(delivery.kind).toBe('push');
    if (delivery.kind !== 'push') return;
    expect(delivery.pushes).toHaveLength(1);
    expect(delivery.pushes[0]!.ref).toBe('refs/heads/main');
    expect(delivery.pushes[0]!.after).toBe('0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c');
    expect(delivery.pushes[0]!.repository).toBe('Acme/cluster-config');
  });

  it('answers ping with 200, saying which config sources the repository feeds', () => {
    const delivery = interpretDelivery(envelope('ping', fixtureText('ping')), sources);
    expect(delivery).toMatchObject({
      kind: 'answered',
      response: {
        status: 200,
        body: { zen: 'Design for failure.', hookId: 482211937, repository: 'Acme/cluster-config', sources: ['main'] },
      },
    });
    const other = interpretDelivery(envelope('ping', fixtureText('ping')), [sources[1]]);
    expect(other.kind === 'answered' && other.response.body.message).toMatch(
      /not the repository of any git config source/,
    );
  });

  it('tells a hook that does not send pushes so', () => {
    const ping = JSON.parse(fixtureText('ping'));
    ping.hook.events = ['issues'];
    const delivery = interpretDelivery(envelope('ping', JSON.stringify(ping)), sources);
    expect(delivery.kind === 'answered' && delivery.response.body.message).toMatch(/does not send push events/);
  });

  it('ignores other events with 202 without reading the body', () => {
    expect(interpretDelivery(envelope('issues', fixtureText('issues-opened')), sources)).toMatchObject({
      kind: 'answered',
      response: { status: 202, body: { ignored: true, event: 'issues' } },
    });
    expect(interpretDelivery(envelope('workflow_run', '{not json'), sources)).toMatchObject({
      response: { status: 202 },
    });
  });

  it('answers malformed JSON and wrong shapes with 400 naming the field', () => {
    expect(interpretDelivery(envelope('push', '{"ref": "refs/heads/main",'), sources)).toMatchObject({
      response: { status: 400, body: { error: expect.stringMatching(/^body is not valid JSON/) } },
    });
    const bad = interpretDelivery(envelope('push', JSON.stringify(pushPayload({ after: 'main' }))), sources);
    expect(bad).toMatchObject({ response: { status: 400, body: { error: 'not a push payload' } } });
    expect(bad.kind === 'answered' && bad.response.body.issues).toEqual(['after: must be a 40-character commit SHA']);
  });

  it('reads the form-encoded content type GitHub also offers', () => {
    const body = new URLSearchParams({ payload: fixtureText('push') }).toString();
    const delivery = interpretDelivery(envelope('push', body, 'application/x-www-form-urlencoded'), sources);
    expect(delivery.kind).toBe('push');
    expect(interpretDelivery(envelope('push', 'x=1', 'application/x-www-form-urlencoded'), sources)).toMatchObject({
      response: { status: 400, body: { error: 'form body without a payload field' } },
    });
  });
});

describe('answers', () => {
  it('says a replayed delivery was already accepted, with 401', () => {
    expect(replayed({ deliveryId: 'd-1' }, Date.parse('2024-05-02T09:00:00Z'))).toEqual({
      status: 401,
      body: {
        error: 'delivery d-1 was already accepted at 2024-05-02T09:00:00.000Z; nothing done again',
        delivery: 'd-1',
      },
    });
  });

  it('says what a push matched and started', () => {
    const match = {
      repository: 'Acme/cluster-config',
      ref: 'refs/heads/main',
      commit: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
      deleted: false,
      sources: ['main'],
      clusters: ['a', 'b'],
      problems: [],
    };
    const answer = pushAnswer({ deliveryId: 'd-1' }, match, { started: ['a'], skipped: 1 });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ affected: 2, clusters: ['a', 'b'], started: ['a'], skipped: 1 });
    expect(answer.body.message).toBe(
      'push to refs/heads/main of Acme/cluster-config (0d1a26e67d8f) feeds config source main: 2 clusters follow the ref, 1 update started',
    );
  });
});
