// The forge credentials secret: today's GitHub forms unchanged, the per-forge form, and errors naming the field
// without the secret.
import { generateKeyPairSync } from 'node:crypto';
import {
  DEFAULT_BITBUCKET_API_URL,
  DEFAULT_GITLAB_API_URL,
  parseForgeSecret,
} from '../../../lambdas/adapters/forge/forge-secret';
import { ConfigError } from '../../../lambdas/shared/errors';
import { redactSecrets } from '../../../lambdas/shared/redact';

const FROM = 'secret clm/forge';
const pem = generateKeyPairSync('rsa', { modulusLength: 1024 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

const refusal = (text: string) => {
  try {
    parseForgeSecret(text, FROM);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('parseForgeSecret', () => {
  it("reads today's forms as GitHub, unchanged: a token, {token}, a GitHub App", () => {
    expect(parseForgeSecret(' ghp_plain_token_1 \n', FROM)).toEqual({
      github: { credentials: { kind: 'token', token: 'ghp_plain_token_1' }, hosts: [] },
    });
    expect(parseForgeSecret('{"token": "github_pat_2"}', FROM)).toEqual({
      github: { credentials: { kind: 'token', token: 'github_pat_2' }, hosts: [] },
    });
    expect(parseForgeSecret(JSON.stringify({ appId: 12, privateKey: pem, installationId: '34' }), FROM)).toEqual({
      github: { credentials: { kind: 'app', appId: '12', privateKey: pem, installationId: 34 }, hosts: [] },
    });
  });

  it('reads one entry per forge, with API URLs and self-hosted hosts', () => {
    const secret = parseForgeSecret(
      JSON.stringify({
        github: { token: 'ghp_in_entry_3', apiUrl: 'https://ghe.example.com/api/v3' },
        gitlab: { token: 'glpat-entry-4', apiUrl: 'https://gitlab.example.com/api/v4', hosts: ['Git.Example.com'] },
        bitbucket: { username: 'clm-bot', appPassword: 'app-password-5' },
      }),
      FROM,
    );

    expect(secret).toEqual({
      github: {
        credentials: { kind: 'token', token: 'ghp_in_entry_3' },
        apiUrl: 'https://ghe.example.com/api/v3',
        hosts: ['ghe.example.com'],
      },
      gitlab: {
        token: 'glpat-entry-4',
        apiUrl: 'https://gitlab.example.com/api/v4',
        hosts: ['git.example.com', 'gitlab.example.com'],
      },
      bitbucket: {
        auth: { kind: 'basic', username: 'clm-bot', appPassword: 'app-password-5' },
        apiUrl: DEFAULT_BITBUCKET_API_URL,
        hosts: [],
      },
    });
    expect(
      parseForgeSecret('{"gitlab": {"token": "glpat-6-entry"}, "bitbucket": {"token": "bb-7-token"}}', FROM),
    ).toEqual({
      gitlab: { token: 'glpat-6-entry', apiUrl: DEFAULT_GITLAB_API_URL, hosts: [] },
      bitbucket: { auth: { kind: 'bearer', token: 'bb-7-token' }, apiUrl: DEFAULT_BITBUCKET_API_URL, hosts: [] },
    });
    expect(parseForgeSecret('{"github": "ghp_string_entry_8"}', FROM).github?.credentials).toEqual({
      kind: 'token',
      token: 'ghp_string_entry_8',
    });
    expect(redactSecrets('glpat-entry-4 app-password-5 bb-7-token ghp_in_entry_3')).not.toMatch(/entry|password|bb-7/);
  });

  it('refuses a bad entry naming the forge and field, never a secret', () => {
    const messages = [
      refusal('{"gitlab": {"tokn": "glpat-secret-9"}}'),
      refusal('{"gitlab": {"token": "glpat-secret-9", "apiUrl": "gitlab.example.com"}}'),
      refusal('{"bitbucket": {"username": "clm-bot"}}'),
      refusal('{"github": {"token": ""}}'),
      refusal('{"gitlab": {"token": "glpat-secret-9"}, "gitea": {"token": "x-secret-10"}}'),
      refusal('{"gitlab": {"token": "glpat-secret-9", "hosts": ["https://git.example.com"]}}'),
      refusal('{"token": "ghp_x", '),
    ];

    expect(messages).toEqual([
      expect.stringMatching(/^secret clm\/forge: gitlab: .*token: .*; .*tokn/),
      `${FROM}: gitlab: apiUrl: must be an http(s) URL`,
      `${FROM}: bitbucket: appPassword: Invalid input: expected string, received undefined`,
      expect.stringMatching(/^secret clm\/forge: github: expected \{"token": "..."\}/),
      `${FROM}: unknown forge "gitea"; expected github, gitlab or bitbucket`,
      `${FROM}: gitlab: hosts.0: must be a host name like git.example.com`,
      `${FROM} starts like JSON but is not`,
    ]);
    expect(messages.join('\n')).not.toMatch(/secret-9|secret-10|ghp_x/);
  });
});
