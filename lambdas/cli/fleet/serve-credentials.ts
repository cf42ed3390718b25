import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseForgeSecret } from '../../adapters/forge/forge-secret';
import { forgesFromSecret } from '../../adapters/forge/forges-from-secret';
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
  readonly forgeCredentialsFile?: string;
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

/**
 * The forges commit statuses (and pull request plans, GitHub only) go to: `--forge-credentials-file` (the forge
 * secret's format: GitHub's forms, or per-forge entries for GitHub, GitLab and Bitbucket) or `--github-token-file`
 * (GitHub's forms only); none without either.
 */
export function forgeFromFlags(flags: CredentialFlags, cwd: string): Forge | undefined {
  if (flags.forgeCredentialsFile && flags.githubTokenFile)
    throw new UsageError('give --forge-credentials-file or --github-token-file, not both');
  const [flag, file] = flags.forgeCredentialsFile
    ? ['--forge-credentials-file', flags.forgeCredentialsFile]
    : ['--github-token-file', flags.githubTokenFile];
  if (!file) return undefined;
  if (!/^https?:\/\/\S+$/.test(flags.githubApiUrl))
    throw new UsageError(`--github-api-url ${flags.githubApiUrl} is not an http(s) URL`);
  const secret = parseForgeSecret(readFlagFile(flag, resolve(cwd, file)), `${flag} ${file}`);
  if (flag === '--github-token-file' && !secret.github)
    throw new UsageError(
      `--github-token-file ${file} names no GitHub credentials; give other forges' with --forge-credentials-file`,
    );
  return forgesFromSecret(secret, { githubApiUrl: flags.githubApiUrl });
}

function readFlagFile(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
}
