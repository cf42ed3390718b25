import { createHmac } from 'node:crypto';

/**
 * Payloads as GitLab, Bitbucket Data Center and GitHub send them (the fields of their documented examples; the ones
 * CLM reads and a few it does not), as raw text with the headers of a real delivery.
 */

export function gitlabPush(input: { ref: string; before: string; after: string; project?: string }): string {
  const project = input.project ?? 'acme/cluster-config';
  return JSON.stringify({
    object_kind: input.ref.startsWith('refs/tags/') ? 'tag_push' : 'push',
    event_name: input.ref.startsWith('refs/tags/') ? 'tag_push' : 'push',
    before: input.before,
    after: input.after,
    ref: input.ref,
    ref_protected: true,
    checkout_sha: input.after,
    user_id: 4,
    user_name: 'Jane Doe',
    user_username: 'jdoe',
    project_id: 15,
    project: {
      id: 15,
      name: project.split('/').at(-1),
      web_url: `https://gitlab.example.com/${project}`,
      git_http_url: `https://gitlab.example.com/${project}.git`,
      namespace: project.split('/')[0],
      path_with_namespace: project,
      default_branch: 'main',
    },
    commits: [
      {
        id: input.after,
        message: 'Raise the node pool',
        timestamp: '2026-11-28T10:00:00+00:00',
        added: [],
        modified: ['cluster/cluster.yaml'],
        removed: [],
      },
    ],
    total_commits_count: 1,
    repository: { name: project.split('/').at(-1), url: `git@gitlab.example.com:${project}.git` },
  });
}

export function gitlabHeaders(event: string, uuid: string, token?: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'GitLab/17.6.0',
    'X-Gitlab-Event': event,
    'X-Gitlab-Instance': 'https://gitlab.example.com',
    'X-Gitlab-Webhook-UUID': '2f6b0a54-0d4f-4d8b-9f0e-6b7d1b6a9c11',
    'X-Gitlab-Event-UUID': uuid,
    'Idempotency-Key': uuid,
    ...(token ? { 'X-Gitlab-Token': token } : {}),
  };
}

export function bitbucketRefsChanged(
  changes: { refId: string; fromHash: string; toHash: string; type: string }[],
): string {
  return JSON.stringify({
    eventKey: 'repo:refs_changed',
    date: '2026-11-28T10:00:00+0000',
    actor: {
      name: 'jdoe',
      emailAddress: 'jdoe@example.com',
      id: 3,
      displayName: 'Jane Doe',
      active: true,
      slug: 'jdoe',
      type: 'NORMAL',
    },
    repository: {
      slug: 'cluster-config',
      id: 84,
      name: 'cluster-config',
      scmId: 'git',
      state: 'AVAILABLE',
      forkable: true,
      project: { key: 'ACME', id: 84, name: 'Acme', public: false, type: 'NORMAL' },
      public: false,
    },
    changes: changes.map((c) => ({
      ref: {
        id: c.refId,
        displayId: c.refId.replace(/^refs\/(heads|tags)\//, ''),
        type: c.refId.startsWith('refs/tags/') ? 'TAG' : 'BRANCH',
      },
      ...c,
    })),
  });
}

export function bitbucketHeaders(
  event: string,
  requestId: string,
  body: string,
  secret?: string,
): Record<string, string> {
  return {
    'Content-Type': 'application/json; charset=utf-8',
    'X-Event-Key': event,
    'X-Request-Id': requestId,
    ...(secret ? { 'X-Hub-Signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` } : {}),
  };
}

export function pullRequestEvent(input: {
  action: string;
  number: number;
  head: string;
  base?: string;
  headRepo?: string;
}): string {
  const repo = { id: 1, name: 'cluster-config', full_name: 'acme/cluster-config', owner: { login: 'acme' } };
  return JSON.stringify({
    action: input.action,
    number: input.number,
    pull_request: {
      url: `https://api.github.com/repos/acme/cluster-config/pulls/${input.number}`,
      html_url: `https://github.com/acme/cluster-config/pull/${input.number}`,
      number: input.number,
      state: 'open',
      title: 'Raise the node pool',
      head: {
        label: 'acme:raise',
        ref: 'raise',
        sha: input.head,
        repo: { ...repo, full_name: input.headRepo ?? repo.full_name },
      },
      base: { label: 'acme:main', ref: input.base ?? 'main', sha: 'a'.repeat(40), repo },
    },
    repository: repo,
    sender: { login: 'jdoe' },
  });
}

export function githubSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
