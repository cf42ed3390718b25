import type { Command } from 'commander';
import { CliExit, type CliIo } from '../io';
import { addFleetOptions, type FleetFlags } from '../fleet/fleet-options';
import { BITBUCKET_WEBHOOK_PATH, GITLAB_WEBHOOK_PATH, HEALTH_PATH, WEBHOOK_PATH } from '../fleet/webhook-paths';
import { optimizeHotCode } from '../optimizing-compiler';

export interface ServeOptions extends FleetFlags {
  readonly port: string;
  readonly webhookSecretFile?: string;
  readonly gitlabTokenFile?: string;
  readonly bitbucketSecretFile?: string;
  readonly githubApiUrl: string;
  readonly githubTokenFile?: string;
  readonly forgeCredentialsFile?: string;
  readonly interval: string;
  readonly verbose?: boolean;
}

const EXAMPLES = `
Examples:
  # The controller over a local git repository and the simulated world: a push updates the clusters following it
  $ openssl rand -hex 20 > /tmp/hook-secret
  $ clm serve --simulate --registry examples/clusters.yaml \\
      --config-source main:git:file:///srv/git/acme/cluster-config.git \\
      --port 8080 --webhook-secret-file /tmp/hook-secret --interval 60

  # Commit statuses and pull request plans on GitHub (or a GitHub Enterprise Server), GitLab pushes too
  $ clm serve --simulate --registry examples/clusters.yaml \
      --config-source main:git:file:///srv/git/acme/cluster-config.git --webhook-secret-file /tmp/hook-secret \
      --github-token-file /tmp/github-token --github-api-url https://github.example.com/api/v3 \
      --gitlab-token-file /tmp/gitlab-token

  # Ask it how it is doing
  $ curl -s http://127.0.0.1:8080/healthz

It listens on 127.0.0.1 only: POST ${WEBHOOK_PATH} takes GitHub's push and pull_request webhooks (content type
application/json, signed with the secret in --webhook-secret-file: X-Hub-Signature-256), POST ${GITLAB_WEBHOOK_PATH} GitLab's
Push Hook and Tag Push Hook (X-Gitlab-Token, --gitlab-token-file), POST ${BITBUCKET_WEBHOOK_PATH} Bitbucket Data Center's
repo:refs_changed (X-Hub-Signature, --bitbucket-secret-file); GET ${HEALTH_PATH} reports the controller. With
--github-token-file, every update it runs sets the commit status clm/<alias> on its commit (pending, then success or
failure), and a pull request's plan is written as one comment on the PR (never applied). With
--forge-credentials-file ({"github": …, "gitlab": {"token", "apiUrl"}, "bitbucket": {"token"}}), each config source's
commits get their statuses on the forge of its URL's host (plan comments: GitHub only).
A pass runs at start, on every accepted push (over the clusters following the pushed ref), every --interval
seconds, and whenever an update ends (so the next wave starts); the updates it starts run here, one at a time, on
the same state machine as the deployed system. Each decision is logged. Ctrl-C stops at a safe point (between two
tasks; the update's lease released; exit code 130); start it again to resume. The secret file holds the secret, or JSON
{"secret": "...", "previous": "..."} while one is rotated.`;

export function registerServeCommand(program: Command, io: CliIo): void {
  addFleetOptions(
    program
      .command('serve')
      .description("CLM's controller mode: a webhook endpoint and a dispatcher loop that run the updates it starts."),
  )
    .option(
      '--webhook-secret-file <file>',
      'file holding the secret GitHub signs deliveries with (POST /webhooks/github)',
    )
    .option('--gitlab-token-file <file>', "file holding the GitLab hook's secret token (POST /webhooks/gitlab)")
    .option(
      '--bitbucket-secret-file <file>',
      'file holding the secret Bitbucket signs deliveries with (POST /webhooks/bitbucket)',
    )
    .option(
      '--github-token-file <file>',
      'GitHub credentials for commit statuses and pull request plans: a token, or GitHub App JSON',
    )
    .option(
      '--forge-credentials-file <file>',
      'credentials for commit statuses on GitHub, GitLab and Bitbucket: the forge secret\'s JSON (README "Feedback in the forge")',
    )
    .option(
      '--github-api-url <url>',
      "GitHub's API (GitHub Enterprise Server: https://HOST/api/v3)",
      'https://api.github.com',
    )
    .option('--port <port>', 'port on 127.0.0.1 (0: any free port, printed at start)', '8080')
    .option('--interval <seconds>', 'seconds between two scheduled passes', '300')
    .option('-v, --verbose', "log every task's progress line of the updates")
    .addHelpText('after', EXAMPLES)
    .action(async (options: ServeOptions) => {
      const { runServe } = await import('./serve-run');
      optimizeHotCode();
      throw new CliExit(await runServe(options, io));
    });
}
