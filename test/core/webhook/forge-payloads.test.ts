// GitLab's and Bitbucket's push bodies: a body that is not JSON, or not the forge's push payload, is answered 400
// naming what is wrong (and the field), and starts nothing.
import { interpretBitbucketDelivery } from '../../../lambdas/core/webhook/bitbucket-request';
import { interpretGitlabDelivery } from '../../../lambdas/core/webhook/gitlab-request';
import type { WebhookEnvelope } from '../../../lambdas/core/webhook/webhook-request';

const envelope = (event: string, body: string): WebhookEnvelope => ({
  event,
  deliveryId: 'd-1',
  signature: 'x',
  contentType: 'application/json',
  body,
});

describe.each([
  ['GitLab', 'Push Hook', interpretGitlabDelivery, 'not a GitLab push payload', 'ref'],
  ['Bitbucket', 'repo:refs_changed', interpretBitbucketDelivery, 'not a repo:refs_changed payload', 'repository'],
])('%s push bodies', (_forge, event, interpret, what, field) => {
  it('answers a body that is not JSON with 400', () => {
    expect(interpret(envelope(event, '{not json'))).toEqual({
      kind: 'answered',
      response: {
        status: 400,
        body: expect.objectContaining({ error: expect.stringMatching(/^body is not valid JSON/) }),
      },
    });
  });

  it('answers JSON that is not the push payload with 400, naming the field', () => {
    const answer = interpret(envelope(event, '{"object_kind":"push"}'));
    expect(answer).toEqual({
      kind: 'answered',
      response: {
        status: 400,
        body: expect.objectContaining({
          error: what,
          issues: expect.arrayContaining([expect.stringMatching(new RegExp(`^${field}`))]),
        }),
      },
    });
  });
});
