import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseForgeCredentials } from '../../adapters/forge/forge-credentials';
import { githubTokenProvider } from '../../adapters/forge/github-app-token';
import { GithubForge } from '../../adapters/forge/github-forge';
import { ForgeWebhookVerifier } from '../../adapters/webhook/forge-webhook-verifier';
import type { Forge } from '../../ports/forge';
import type { WebhookVerifier } from '../../ports/webhook-verifier';
import { parseWebhookSecret } from '../../runtime/lambda/webhook-secret';
import { rememberSecret } from '../../shared/redact';
import { UsageError } from '../io';

export interface CredentialFlags {
  readonly webhookSecretFile?: string;
  readonly gitlabTokenFile?: string;
  readonly bitbucketSecretFile?: string;
  readonly githubTokenFile?: string;
  readonly githubApiUrl: string;
}

/** `clm serve`'s webhook verifier from the secret files given (at least one forge's). */
export function verifierFromFlags(flags: CredentialFlags, cwd: string): WebhookVerifier {
  const github = flags.webhookSecretFile
    ? parseWebhookSecret(
        readFlagFile('--webhook-secret-file', resolve(cwd, flags.webhookSecretFile)),
        flags.webhookSecretFile,
      )
    : [];
  const plain = (flag: string, file: string | undefined): string[] => {
    if (!file) return [];
    const text = readFlagFile(flag, resolve(cwd, file)).trim();
    if (!text) throw new UsageError(`${flag} ${file} is empty`);
    rememberSecret(text);
    return [text];
  };
  const gitlab = plain('--gitlab-token-file', flags.gitlabTokenFile);
  const bitbucket = plain('--bitbucket-secret-file', flags.bitbucketSecretFile);
  if (!github.length && !gitlab.length && !bitbucket.length) {
    throw new UsageError('give --webhook-secret-file (GitHub), --gitlab-token-file or --bitbucket-secret-file');
  }
  return new ForgeWebhookVerifier({ github, gitlab, bitbucket });
}

/** The forge commit statuses and pull request plans go to, when `--github-token-file` is given. */
export function forgeFromFlags(flags: CredentialFlags, cwd: string): Forge | undefined {
  if (!flags.githubTokenFile) return undefined;
  if (!/^https?:\/\/\S+$/.test(flags.githubApiUrl))
    throw new UsageError(`--github-api-url ${flags.githubApiUrl} is not an http(s) URL`);
  const credentials = parseForgeCredentials(
    readFlagFile('--github-token-file', resolve(cwd, flags.githubTokenFile)),
    `--github-token-file ${flags.githubTokenFile}`,
  );
  return new GithubForge({ apiUrl: flags.githubApiUrl, token: githubTokenProvider(credentials, flags.githubApiUrl) });
}

function readFlagFile(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
}
