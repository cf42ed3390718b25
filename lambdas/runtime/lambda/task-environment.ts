/**
 * Environment variables the CDK app sets on every task function. The handlers read them by these names; plain data,
 * no CDK imports, so handlers and tests may import it.
 */
export const TASK_ENV = {
  /** DynamoDB table of leases, runs, status and deliveries (`pk`/`sk`, TTL attribute `ttl`). */
  tableName: 'CLM_TABLE_NAME',
  /** S3 bucket of rendered artefacts (content-addressed keys). */
  artifactBucket: 'CLM_ARTIFACT_BUCKET',
  /** Cluster registry: `https://...` (HTTP registry API) or another scheme the registry adapters understand. Unset when not configured. */
  registryUri: 'CLM_REGISTRY',
  /** Config sources in `--config-source` order, comma-separated `NAME:git:URL` entries. Unset when not configured. */
  configSources: 'CLM_CONFIG_SOURCES',
  /** Role the tasks assume in each cluster's account (`arn:aws:iam::<account>:role/<name>`). Unset: same-account mode. */
  assumedRoleName: 'CLM_ASSUMED_ROLE',
  /** Secrets Manager secret holding the git, registry and cluster tokens. Unset when not configured. */
  secretArn: 'CLM_SECRET_ARN',
  /**
   * Same-account mode only: the CloudFormation service role the stack deployer passes as `RoleARN` on
   * create/update/delete, so CloudFormation (not the task) holds the rights to create cluster resources.
   */
  stackRoleArn: 'CLM_STACK_ROLE_ARN',
  /** The cluster-update state machine the dispatcher starts executions of. Set on tasks with the `executions` port. */
  clusterUpdateArn: 'CLM_CLUSTER_UPDATE_ARN',
  /** Fleet settings as JSON (`{"waveOrder": "test,staging,production", "maxConcurrent": 10}`; docs/fleet.md). Unset: defaults. */
  fleetSettings: 'CLM_FLEET_SETTINGS',
  /**
   * Secrets Manager secret with the GitHub webhook secret: the plain secret, or JSON `{"secret": "...",
   * "previous": "..."}` while one is rotated. Set on tasks with the `webhooks` port.
   */
  webhookSecretArn: 'CLM_WEBHOOK_SECRET_ARN',
  /**
   * Secrets Manager secret with the GitHub credentials CLM reports with (commit statuses, pull request plans): a token,
   * or a GitHub App's `{"appId", "privateKey", "installationId"}`. Set on tasks with the `forge` port when configured;
   * unset: nothing is reported.
   */
  forgeSecretArn: 'CLM_FORGE_SECRET_ARN',
  /** GitHub's API (`https://api.github.com`, or `https://HOST/api/v3` for GitHub Enterprise Server). */
  githubApiUrl: 'CLM_GITHUB_API_URL',
  /**
   * Cross-account mode: the ExternalId the assumed role's trust policy requires (ClmClusterAccess). Unset when not
   * configured.
   */
  externalId: 'CLM_EXTERNAL_ID',
  /**
   * Cross-account mode: the CloudFormation service role in every cluster account (`arn:aws:iam::<account>:role/<name>`,
   * ClmClusterAccess creates it); the stack deployer passes it as `RoleARN`, which the access role requires.
   */
  stackRoleName: 'CLM_STACK_ROLE_NAME',
  /** Powertools service name. */
  serviceName: 'POWERTOOLS_SERVICE_NAME',
} as const;

export type TaskEnvName = (typeof TASK_ENV)[keyof typeof TASK_ENV];
