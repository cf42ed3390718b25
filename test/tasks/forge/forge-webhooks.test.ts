// GitLab's and Bitbucket's push webhooks and GitHub's pull_request events, through the GithubWebhook task (its
// contract, only its ports) over the fleet's fakes: valid deliveries act once, forged and replayed ones do nothing.
import { ForgeWebhookVerifier } from '../../../lambdas/adapters/webhook/forge-webhook-verifier';
import { factoriesOf, restrictPorts } from '../../../lambdas/runtime/restrict-ports';
import { runTask } from '../../../lambdas/runtime/run-task';
import { findTask } from '../../../lambdas/tasks/catalogue';
import type { AnyTask } from '../../../lambdas/tasks/define-task';
import { COMMIT_A, COMMIT_B, fleetCluster, settings } from '../../core/dispatch/fleet-fixtures';
import {
  bitbucketHeaders,
  bitbucketRefsChanged,
  githubSignature,
  gitlabHeaders,
  gitlabPush,
  pullRequestEvent,
} from '../../core/webhook/forge-payloads';
import { headers } from '../../core/webhook/payloads';
import { FleetWorld } from '../../support/fleet/fleet-world';

const GITHUB = 'whsec-github';
const GITLAB = 'glpat-hook-token';
const BITBUCKET = 'bb-hook-secret';

function world() {
  const w = new FleetWorld(
    [
      fleetCluster('test-1', 'test', { current: COMMIT_A }),
      fleetCluster('stable-1', 'test', { current: COMMIT_A, channel: 'stable' }),
    ],
    settings(),
    new ForgeWebhookVerifier({ github: [GITHUB], gitlab: [GITLAB], bitbucket: [BITBUCKET] }),
  );
  const task = findTask('GithubWebhook') as AnyTask;
  const post = (path: string, hdrs: Record<string, string>, body: string) =>
    runTask(
      task,
      { method: 'POST', path, headers: hdrs, body },
      restrictPorts(task.name, task.ports, factoriesOf(w.ports)),
    ) as Promise<any>;
  return { w, post };
}

describe('GitLab push webhooks (/webhooks/gitlab)', () => {
  it('accepts a Push Hook with the token, once; refuses a wrong or missing token and a replay', async () => {
    const { w, post } = world();
    const body = gitlabPush({ ref: 'refs/heads/main', before: COMMIT_A, after: COMMIT_B });

    const ok = await post('/webhooks/gitlab', gitlabHeaders('Push Hook', 'uuid-1', GITLAB), body);
    const replay = await post('/webhooks/gitlab', gitlabHeaders('Push Hook', 'uuid-1', GITLAB), body);
    const forged = await post('/webhooks/gitlab', gitlabHeaders('Push Hook', 'uuid-2', `${GITLAB}x`), body);
    const missing = await post('/webhooks/gitlab', gitlabHeaders('Push Hook', 'uuid-3'), body);
    const github = await post('/webhooks/gitlab', gitlabHeaders('Push Hook', 'uuid-4', GITHUB), body);

    expect(ok).toMatchObject({
      status: 202,
      body: {
        repository: 'acme/cluster-config',
        ref: 'refs/heads/main',
        commit: COMMIT_B,
        affected: 1,
        dispatch: 'requested',
      },
    });
    expect([replay.status, forged.status, missing.status, github.status]).toEqual([401, 401, 401, 401]);
    expect(forged.body.error).toBe('X-Gitlab-Token is not the configured token');
    expect(w.events.ofType('PushAccepted').map((e) => [e.detail.ref, e.detail.commit, e.detail.deliveryId])).toEqual([
      ['refs/heads/main', COMMIT_B, 'gitlab-uuid-1'],
    ]);
    expect(await w.store.getCommit('main', 'refs/heads/main')).toMatchObject({
      commit: COMMIT_B,
      deliveryId: 'gitlab-uuid-1',
    });
  });

  it('accepts a Tag Push Hook for clusters following the tag, and ignores other events', async () => {
    const { w, post } = world();
    const tag = gitlabPush({ ref: 'refs/tags/stable', before: COMMIT_A, after: COMMIT_B });
    const merge = JSON.stringify({ object_kind: 'merge_request' });

    const tagged = await post('/webhooks/gitlab', gitlabHeaders('Tag Push Hook', 'uuid-5', GITLAB), tag);
    const other = await post('/webhooks/gitlab', gitlabHeaders('Merge Request Hook', 'uuid-6', GITLAB), merge);

    expect(tagged.body).toMatchObject({
      ref: 'refs/tags/stable',
      clusters: ['aws:123456789012:eu-central-1:stable-1'],
    });
    expect(other).toMatchObject({
      status: 202,
      body: { ignored: true, message: 'only Push Hook and Tag Push Hook events start updates' },
    });
    expect(w.events.ofType('PushAccepted')).toHaveLength(1);
  });
});

describe('Bitbucket Data Center push webhooks (/webhooks/bitbucket)', () => {
  it('accepts a signed repo:refs_changed, each ref a push; refuses a forged signature and a replay', async () => {
    const { w, post } = world();
    const body = bitbucketRefsChanged([
      { refId: 'refs/heads/main', fromHash: COMMIT_A, toHash: COMMIT_B, type: 'UPDATE' },
      { refId: 'refs/heads/stable', fromHash: COMMIT_A, toHash: COMMIT_B, type: 'UPDATE' },
    ]);

    const ok = await post('/webhooks/bitbucket', bitbucketHeaders('repo:refs_changed', 'req-1', body, BITBUCKET), body);
    const replay = await post(
      '/webhooks/bitbucket',
      bitbucketHeaders('repo:refs_changed', 'req-1', body, BITBUCKET),
      body,
    );
    const forged = await post(
      '/webhooks/bitbucket',
      bitbucketHeaders('repo:refs_changed', 'req-2', body, 'guess'),
      body,
    );
    const unsigned = await post('/webhooks/bitbucket', bitbucketHeaders('repo:refs_changed', 'req-3', body), body);
    const tampered = await post(
      '/webhooks/bitbucket',
      bitbucketHeaders('repo:refs_changed', 'req-4', body, BITBUCKET),
      body.replace('stable', 'stablf'),
    );

    expect(ok).toMatchObject({ status: 202, body: { repository: 'ACME/cluster-config', refs: 2 } });
    expect([replay.status, forged.status, unsigned.status, tampered.status]).toEqual([401, 401, 401, 401]);
    expect(w.events.ofType('PushAccepted').map((e) => e.detail.ref)).toEqual(['refs/heads/main', 'refs/heads/stable']);
  });
});

describe('GitHub pull_request events', () => {
  const head = 'c'.repeat(40);
  const send = (post: ReturnType<typeof world>['post'], delivery: string, body: string, secret = GITHUB) =>
    post('/webhooks/github', headers('pull_request', delivery, githubSignature(secret, body)), body);

  it('asks for a plan of the head for the clusters its base branch feeds, once per delivery', async () => {
    const { w, post } = world();
    const body = pullRequestEvent({ action: 'opened', number: 7, head });

    const ok = await send(post, 'pr-1', body);
    const replay = await send(post, 'pr-1', body);

    expect(ok).toMatchObject({
      status: 202,
      body: { number: 7, head, base: 'refs/heads/main', affected: 1, plan: 'requested' },
    });
    expect(replay.status).toBe(401);
    expect(
      w.events.ofType('PullRequestAccepted').map((e) => [e.detail.number, e.detail.head, e.detail.clusters]),
    ).toEqual([[7, head, ['aws:123456789012:eu-central-1:test-1']]]);
    expect(w.executions.started).toEqual([]); // PlanPullRequest starts the plans, never the webhook
  });

  it('ignores forged and irrelevant pull request events: bad signature, closed, a fork, a base no cluster follows', async () => {
    const { w, post } = world();

    const forged = await send(post, 'pr-2', pullRequestEvent({ action: 'opened', number: 8, head }), 'guess');
    const closed = await send(post, 'pr-3', pullRequestEvent({ action: 'closed', number: 8, head }));
    const fork = await send(
      post,
      'pr-4',
      pullRequestEvent({ action: 'opened', number: 9, head, headRepo: 'mallory/cluster-config' }),
    );
    const other = await send(
      post,
      'pr-5',
      pullRequestEvent({ action: 'synchronize', number: 10, head, base: 'feature' }),
    );

    expect(forged.status).toBe(401);
    expect(closed.body).toMatchObject({
      ignored: true,
      message: 'pull_request action closed: only opened, synchronize, reopened are planned',
    });
    expect(fork.body).toMatchObject({
      ignored: true,
      message: 'pull request #9 comes from mallory/cluster-config: pull requests from forks are not planned',
    });
    expect(other.body).toMatchObject({ ignored: true, affected: 0 });
    expect(other.body.message).toContain('no cluster follows its base branch; nothing to plan');
    expect(w.events.ofType('PullRequestAccepted')).toEqual([]);
  });
});
