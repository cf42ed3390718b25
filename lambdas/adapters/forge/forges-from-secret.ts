import type { ForgeKind } from '../../core/forge/forge-hosts';
import { BitbucketForge } from './bitbucket-forge';
import type { ForgeSecret } from './forge-secret';
import { ForgeRouter, type RoutedForge } from './forge-router';
import { githubTokenProvider } from './github-app-token';
import { DEFAULT_GITHUB_API_URL, GithubForge } from './github-forge';
import { GitlabForge } from './gitlab-forge';

/** The forges a parsed secret names, as one ForgeRouter. `githubApiUrl`: GitHub's when its entry names none. */
export function forgesFromSecret(
  secret: ForgeSecret,
  options: { readonly githubApiUrl?: string; readonly fetch?: typeof fetch } = {},
): ForgeRouter {
  const forges: Partial<Record<ForgeKind, RoutedForge>> = {};
  const fetch = options.fetch ? { fetch: options.fetch } : {};
  if (secret.github) {
    const apiUrl = secret.github.apiUrl ?? options.githubApiUrl ?? DEFAULT_GITHUB_API_URL;
    const token = githubTokenProvider(secret.github.credentials, apiUrl);
    forges.github = { forge: new GithubForge({ apiUrl, token, ...fetch }), hosts: secret.github.hosts };
  }
  if (secret.gitlab) {
    const { token, apiUrl, hosts } = secret.gitlab;
    forges.gitlab = { forge: new GitlabForge({ apiUrl, token, ...fetch }), hosts };
  }
  if (secret.bitbucket) {
    const { auth, apiUrl, hosts } = secret.bitbucket;
    forges.bitbucket = { forge: new BitbucketForge({ apiUrl, auth, ...fetch }), hosts };
  }
  return new ForgeRouter(forges);
}
