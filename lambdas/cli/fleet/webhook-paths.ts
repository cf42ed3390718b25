/** The paths `clm serve` answers on (webhook-server.ts), apart so its help names them without loading the server. */
export const WEBHOOK_PATH = '/webhooks/github';
/** GitLab's and Bitbucket's deliveries, on the same server (the GithubWebhook task tells the forges apart by path). */
export const GITLAB_WEBHOOK_PATH = '/webhooks/gitlab';
export const BITBUCKET_WEBHOOK_PATH = '/webhooks/bitbucket';
export const WEBHOOK_PATHS = [WEBHOOK_PATH, GITLAB_WEBHOOK_PATH, BITBUCKET_WEBHOOK_PATH] as const;
export const HEALTH_PATH = '/healthz';
