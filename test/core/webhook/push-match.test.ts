import type { ConfigSourceSpec } from '../../../lambdas/core/model/config-source-spec';
import { GithubPushEvent } from '../../../lambdas/core/webhook/github-events';
import {
  githubPush,
  matchPush,
  refMatchesChannel,
  repositoryPath,
  sourceCommits,
  sourcesForRepository,
} from '../../../lambdas/core/webhook/push-match';
import { cluster } from '../render/fixtures';
import { pushPayload } from './payloads';

const push = (overrides: Record<string, unknown> = {}) => githubPush(GithubPushEvent.parse(pushPayload(overrides)));

describe('repositoryPath', () => {
  it.each([
    ['https://github.com/Acme/Cluster-Config.git', ['acme', 'cluster-config']],
    ['https://x-access-token:t0k@github.com/acme/cluster-config', ['acme', 'cluster-config']],
    ['file:///srv/git/acme/cluster-config.git', ['srv', 'git', 'acme', 'cluster-config']],
    ['http://127.0.0.1:8080/acme/cluster-config.git/', ['acme', 'cluster-config']],
    ['git@github.com:acme/cluster-config.git', ['acme', 'cluster-config']],
  ])('%s → %j', (url, path) => {
    expect(repositoryPath(url)).toEqual(path);
  });
});

describe('sourcesForRepository', () => {
  const sources: ConfigSourceSpec[] = [
    { name: 'main', kind: 'git', location: 'https://github.com/acme/cluster-config' },
    { name: 'mirror', kind: 'git', location: 'file:///srv/git/ACME/cluster-config.git' },
    { name: 'other', kind: 'git', location: 'https://github.com/acme/cluster-config-extra.git' },
    { name: 'prefix', kind: 'git', location: 'https://github.com/notacme/cluster-config.git' },
    { name: 'dir', kind: 'dir', location: '/srv/git/acme/cluster-config' },
  ];

  it('matches whole owner/name segments, case-insensitively, with or without .git; never directories', () => {
    expect(sourcesForRepository(sources, 'Acme/cluster-config').map((s) => s.name)).toEqual(['main', 'mirror']);
    expect(sourcesForRepository(sources, 'acme/cluster-config-extra').map((s) => s.name)).toEqual(['other']);
    expect(sourcesForRepository(sources, 'acme/nothing')).toEqual([]);
  });
});

describe('refMatchesChannel', () => {
  it('matches a branch or tag by short or full name only', () => {
    expect(refMatchesChannel('refs/heads/main', 'main')).toBe(true);
    expect(refMatchesChannel('refs/heads/main', 'refs/heads/main')).toBe(true);
    expect(refMatchesChannel('refs/tags/v1', 'v1')).toBe(true);
    expect(refMatchesChannel('refs/heads/main-2', 'main')).toBe(false);
    expect(refMatchesChannel('refs/heads/feature/main', 'main')).toBe(false);
  });
});

describe('matchPush', () => {
  const sources: ConfigSourceSpec[] = [
    { name: 'main', kind: 'git', location: 'https://github.com/acme/cluster-config.git' },
    { name: 'addons', kind: 'git', location: 'https://github.com/acme/addons.git' },
  ];
  const clusters = [
    cluster({ id: 'aws:1:eu-central-1:a', channel: 'main' }),
    cluster({ id: 'aws:1:eu-central-1:b', channel: 'beta' }),
    cluster({ id: 'aws:1:eu-central-1:c', channel: 'beta', configItems: { override_channel: 'main=main' } }),
    cluster({ id: 'aws:1:eu-central-1:d', channel: 'main', configItems: { override_channel: 'main=stable' } }),
    cluster({ id: 'aws:1:eu-central-1:e', channel: 'main', lifecycleStatus: 'decommissioned' }),
    cluster({ id: 'aws:1:eu-central-1:f', channel: 'main', configItems: { override_channel: 'bogus' } }),
  ];

  it('affects the clusters whose channel (or override for the source) is the pushed ref', () => {
    const match = matchPush(push(), sources, clusters);
    expect(match).toMatchObject({
      repository: 'Acme/cluster-config',
      ref: 'refs/heads/main',
      commit: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
      deleted: false,
      sources: ['main'],
      clusters: ['aws:1:eu-central-1:a', 'aws:1:eu-central-1:c', 'aws:1:eu-central-1:f'],
    });
    expect(match.problems).toEqual([
      expect.stringMatching(/cluster aws:1:eu-central-1:f.*override_channel "bogus": entry "bogus" is not source=ref/),
    ]);
  });

  it('follows an override only for its own source', () => {
    const addons = push({ repository: { ...(pushPayload().repository as object), full_name: 'acme/addons' } });
    expect(matchPush(addons, sources, clusters).clusters).toEqual([
      'aws:1:eu-central-1:a',
      'aws:1:eu-central-1:d',
      'aws:1:eu-central-1:f',
    ]);
  });

  it('matches nothing for a repository no source uses, and marks deleted refs', () => {
    const other = push({ repository: { ...(pushPayload().repository as object), full_name: 'acme/website' } });
    expect(matchPush(other, sources, clusters)).toMatchObject({ sources: [], clusters: [] });
    const deleted = push({ ref: 'refs/heads/beta', deleted: true, after: '0'.repeat(40) });
    expect(matchPush(deleted, sources, clusters)).toMatchObject({
      deleted: true,
      clusters: ['aws:1:eu-central-1:b'],
    });
  });

  it('records one commit per matched source, timed by pushed_at', () => {
    const event = push();
    const match = matchPush(event, sources, clusters);
    expect(sourceCommits(event, match, 'd-1', 5)).toEqual([
      {
        source: 'main',
        ref: 'refs/heads/main',
        commit: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
        deleted: false,
        pushedAt: 1714641290_000,
        deliveryId: 'd-1',
        recordedAt: 5,
      },
    ]);
  });
});
