// The GitLab adapter against a fake of GitLab's commit status API on loopback that keeps GitLab's state machine and
// refuses what GitLab refuses.
import { GitlabForge } from '../../../lambdas/adapters/forge/gitlab-forge';
import type { CommitStatus } from '../../../lambdas/core/forge/commit-status';
import { ConfigError, TransientApiError } from '../../../lambdas/shared/errors';
import { FakeGitlab } from '../../support/forge/fake-gitlab';

const PROJECT = 'acme/platform/cluster-config';
const SHA = 'c'.repeat(40);
const TOKEN = 'glpat-reporting-token';

let gitlab: FakeGitlab;
beforeEach(async () => {
  gitlab = new FakeGitlab({ tokens: [TOKEN], projects: { [PROJECT]: new Set([SHA]) } });
  await gitlab.listen();
});
afterEach(() => gitlab.close());

const status = (state: CommitStatus['state'], extra: Partial<CommitStatus> = {}): CommitStatus => ({
  repository: 'platform/cluster-config',
  project: PROJECT,
  host: 'gitlab.com',
  sha: SHA,
  state,
  context: 'clm/test-1',
  description: `update ${state}`,
  targetUrl: 'https://eu-central-1.console.aws.amazon.com/states/home#/v2/executions/details/x',
  ...extra,
});

const forge = (token = TOKEN) => new GitlabForge({ apiUrl: gitlab.apiUrl, token });

describe('GitlabForge', () => {
  it('moves clm/<alias> running then success on the project of its full path (nested groups)', async () => {
    await forge().setStatus(status('pending'));
    const started = gitlab.statusesOf(PROJECT, SHA);
    await forge().setStatus(status('success'));

    expect(started).toEqual([['clm/test-1', 'running']]);
    expect(gitlab.statusesOf(PROJECT, SHA)).toEqual([['clm/test-1', 'success']]);
    expect(gitlab.all(PROJECT, SHA)[0]).toMatchObject({
      description: 'update success',
      target_url: expect.any(String),
    });
    expect(gitlab.requests.map((r) => r.path)).toEqual([
      `/api/v4/projects/acme%2Fplatform%2Fcluster-config/statuses/${SHA}`,
      `/api/v4/projects/acme%2Fplatform%2Fcluster-config/statuses/${SHA}`,
    ]);
  });

  it('maps failure to failed and error (an aborted update) to canceled', async () => {
    await forge().setStatus(status('pending'));
    await forge().setStatus(status('failure'));
    await forge().setStatus(status('pending', { context: 'clm/test-2' }));
    await forge().setStatus(status('error', { context: 'clm/test-2' }));

    expect(gitlab.statusesOf(PROJECT, SHA)).toEqual([
      ['clm/test-1', 'failed'],
      ['clm/test-2', 'canceled'],
    ]);
  });

  it('takes a start reported twice as done, though GitLab refuses moving a running status to running', async () => {
    await forge().setStatus(status('pending'));
    const url = `${gitlab.apiUrl}/projects/${encodeURIComponent(PROJECT)}/statuses/${SHA}`;
    const direct = await fetch(url, {
      method: 'POST',
      headers: { 'private-token': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'running', name: 'clm/test-1' }),
    });

    await expect(forge().setStatus(status('pending'))).resolves.toBeUndefined();

    expect([direct.status, await direct.json()]).toEqual([
      400,
      { message: 'Cannot transition status via :run from :running' },
    ]);
    expect(gitlab.statusesOf(PROJECT, SHA)).toEqual([['clm/test-1', 'running']]);
  });

  it('says what GitLab refused: a bad token, an unknown project or commit', async () => {
    const bad = await forge('glpat-wrong-token')
      .setStatus(status('pending'))
      .catch((e: Error) => e);
    const project = await forge()
      .setStatus(status('pending', { project: 'acme/cluster-config' }))
      .catch((e: Error) => e);
    const commit = await forge()
      .setStatus(status('pending', { sha: 'd'.repeat(40) }))
      .catch((e: Error) => e);

    expect(bad).toBeInstanceOf(ConfigError);
    expect(String(bad)).toContain('HTTP 401 401 Unauthorized');
    expect(String(bad)).not.toContain('glpat-wrong-token');
    expect(String(project)).toContain('acme%2Fcluster-config/statuses');
    expect(String(project)).toContain('HTTP 404 404 Project Not Found');
    expect(String(commit)).toContain('HTTP 404 404 Commit Not Found');
    expect(gitlab.statusesOf(PROJECT, SHA)).toEqual([]);
  });

  it('calls an unreachable GitLab transient', async () => {
    const url = gitlab.apiUrl;
    await gitlab.close();

    const error = await new GitlabForge({ apiUrl: url, token: TOKEN }).setStatus(status('pending')).catch((e) => e);

    expect(error).toBeInstanceOf(TransientApiError);
    expect(String(error)).toContain('cannot reach it');
  });
});
