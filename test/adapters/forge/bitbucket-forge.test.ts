// The Bitbucket Cloud adapter against a fake of its build status API on loopback that keeps one status per key and
// refuses what Bitbucket refuses.
import { BitbucketForge, bitbucketKey } from '../../../lambdas/adapters/forge/bitbucket-forge';
import type { BitbucketAuth } from '../../../lambdas/adapters/forge/forge-secret';
import type { CommitStatus } from '../../../lambdas/core/forge/commit-status';
import { ConfigError } from '../../../lambdas/shared/errors';
import { FakeBitbucket } from '../../support/forge/fake-bitbucket';

const REPO = 'acme/cluster-config';
const SHA = 'e'.repeat(40);
const TOKEN = 'bb-access-token';
const LINK = 'https://eu-central-1.console.aws.amazon.com/states/home#/v2/executions/details/x';

let bitbucket: FakeBitbucket;
beforeEach(async () => {
  bitbucket = new FakeBitbucket({
    tokens: [TOKEN],
    appPasswords: ['clm-bot:app-password-1'],
    repositories: { [REPO]: new Set([SHA]) },
  });
  await bitbucket.listen();
});
afterEach(() => bitbucket.close());

const status = (state: CommitStatus['state'], extra: Partial<CommitStatus> = {}): CommitStatus => ({
  repository: REPO,
  project: REPO,
  host: 'bitbucket.org',
  sha: SHA,
  state,
  context: 'clm/test-1',
  description: `update ${state}`,
  targetUrl: LINK,
  ...extra,
});

const forge = (auth: BitbucketAuth = { kind: 'bearer', token: TOKEN }) =>
  new BitbucketForge({ apiUrl: bitbucket.apiUrl, auth });

const post = (body: Record<string, unknown>) =>
  fetch(`${bitbucket.apiUrl}/repositories/${REPO}/commit/${SHA}/statuses/build`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (r) => [r.status, (await r.json()) as { error: { fields: unknown } }] as const);

describe('BitbucketForge', () => {
  it('sets INPROGRESS, then SUCCESSFUL on the same key, linked to the execution', async () => {
    await forge().setStatus(status('pending'));
    const started = bitbucket.statusesOf(REPO, SHA).map((s) => s.state);
    await forge({ kind: 'basic', username: 'clm-bot', appPassword: 'app-password-1' }).setStatus(status('success'));

    expect(started).toEqual(['INPROGRESS']);
    expect(bitbucket.statusesOf(REPO, SHA)).toEqual([
      { key: 'clm/test-1', name: 'clm/test-1', state: 'SUCCESSFUL', url: LINK, description: 'update success' },
    ]);
    expect(bitbucket.requests.map((r) => r.status)).toEqual([201, 200]);
  });

  it('maps failure to FAILED and error to STOPPED; a local run links the commit page', async () => {
    await forge().setStatus(status('failure', { targetUrl: undefined }));
    await forge().setStatus(status('error', { context: 'clm/test-2' }));

    expect(bitbucket.statusesOf(REPO, SHA).map((s) => [s.key, s.state, s.url])).toEqual([
      ['clm/test-1', 'FAILED', `https://bitbucket.org/${REPO}/commits/${SHA}`],
      ['clm/test-2', 'STOPPED', LINK],
    ]);
  });

  it('keys a context over 40 characters by a stable 40-character key; the name keeps the whole context', async () => {
    const context = `clm/${'very-long-cluster-alias-'.repeat(3)}eu-central-1`;
    const [tooLong, refusal] = await post({ key: context, state: 'INPROGRESS', url: LINK });

    await forge().setStatus(status('pending', { context }));
    await forge().setStatus(status('success', { context }));

    expect([tooLong, refusal.error.fields]).toEqual([
      400,
      { key: [`Ensure this value has at most 40 characters (it has ${context.length}).`] },
    ]);
    const key = bitbucketKey(context);
    expect(key).toHaveLength(40);
    expect(key).toBe(bitbucketKey(context));
    expect(key).not.toBe(bitbucketKey(`${context}x`));
    expect(bitbucket.statusesOf(REPO, SHA).map((s) => [s.key, s.name, s.state])).toEqual([
      [key, context, 'SUCCESSFUL'],
    ]);
  });

  it('says what Bitbucket refused: a bad token, an unknown repository; it refuses a status without url', async () => {
    const [noUrl, refusal] = await post({ key: 'clm/x', state: 'INPROGRESS' });
    const bad = await forge({ kind: 'bearer', token: 'bb-wrong-token' })
      .setStatus(status('pending'))
      .catch((e: Error) => e);
    const unknown = await forge()
      .setStatus(status('pending', { project: 'acme/other' }))
      .catch((e: Error) => e);
    const nested = await forge()
      .setStatus(status('pending', { project: 'acme/group/x' }))
      .catch((e: Error) => e);

    expect([noUrl, refusal.error.fields]).toEqual([400, { url: ['This field is required.'] }]);
    expect(bad).toBeInstanceOf(ConfigError);
    expect(String(bad)).toContain('HTTP 401 Unauthorized');
    expect(String(unknown)).toContain('HTTP 404 Repository acme/other not found');
    expect(String(nested)).toContain('"acme/group/x" is not workspace/repo_slug');
    expect(bitbucket.statusesOf(REPO, SHA)).toEqual([]);
  });
});
