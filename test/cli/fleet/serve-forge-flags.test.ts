// `clm serve --forge-credentials-file` / `--github-token-file`: the forges statuses go to, from the file's text.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgeFromFlags } from '../../../lambdas/cli/fleet/serve-credentials';
import type { CommitStatus } from '../../../lambdas/core/forge/commit-status';
import { FakeGitlab } from '../../support/forge/fake-gitlab';

const PROJECT = 'acme/platform/cluster-config';
const SHA = '5'.repeat(40);
const TOKEN = 'glpat-serve-flag-token';
const GITHUB_API = 'https://api.github.com';

let dir: string;
let gitlab: FakeGitlab;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'serve-forge-'));
  gitlab = new FakeGitlab({ tokens: [TOKEN], projects: { [PROJECT]: new Set([SHA]) } });
  await gitlab.listen();
});
afterEach(() => gitlab.close());

const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return name;
};
const status: CommitStatus = {
  repository: 'platform/cluster-config',
  project: PROJECT,
  host: 'gitlab.com',
  sha: SHA,
  state: 'pending',
  context: 'clm/kube-test',
  description: 'update running · clm status --cluster kube-test',
};

describe('clm serve forge flags', () => {
  it('--forge-credentials-file: GitLab statuses for a gitlab.com source', async () => {
    const creds = file('forge.json', JSON.stringify({ gitlab: { token: TOKEN, apiUrl: gitlab.apiUrl } }));

    const forge = forgeFromFlags({ forgeCredentialsFile: creds, githubApiUrl: GITHUB_API }, dir);
    await forge!.setStatus(status);

    expect(gitlab.statusesOf(PROJECT, SHA)).toEqual([['clm/kube-test', 'running']]);
  });

  it('refuses both flags, other forges in --github-token-file, and a bad entry naming flag, file and field', () => {
    const creds = file('forge.json', JSON.stringify({ gitlab: { token: TOKEN } }));
    const bad = file('bad.json', JSON.stringify({ bitbucket: { token: 'bb-secret-in-file', url: 'x' } }));
    const refusal = (flags: Parameters<typeof forgeFromFlags>[0]) => {
      try {
        forgeFromFlags(flags, dir);
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    };

    expect(refusal({ forgeCredentialsFile: creds, githubTokenFile: creds, githubApiUrl: GITHUB_API })).toBe(
      'give --forge-credentials-file or --github-token-file, not both',
    );
    expect(refusal({ githubTokenFile: creds, githubApiUrl: GITHUB_API })).toBe(
      "--github-token-file forge.json names no GitHub credentials; give other forges' with --forge-credentials-file",
    );
    expect(refusal({ forgeCredentialsFile: bad, githubApiUrl: GITHUB_API })).toBe(
      '--forge-credentials-file bad.json: bitbucket: (entry): Unrecognized key: "url"',
    );
    expect(forgeFromFlags({ githubApiUrl: GITHUB_API }, dir)).toBeUndefined();
  });
});
