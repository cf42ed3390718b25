/**
 * App-level settings, from CDK context (`cdk synth -c registryUri=https://...`) or the environment. Everything is
 * optional so `cdk synth` works out of the box; what is missing is reported as a synth warning, and the task that
 * needs it fails with a message naming the variable.
 */

export interface ClmAppConfig {
  /**
   * Cluster registry the tasks read and update (`CLM_REGISTRY`).
   * @default - unset: executions fail at Prepare until it is configured
   */
  readonly registryUri?: string;
  /**
   * Config sources in order, each `NAME:git:URL` (CLM's `--config-source`; directories make no sense in Lambda).
   * @default []
   */
  readonly configSources: readonly string[];
  /**
   * Role to assume in each cluster's account (CLM's `--assumed-role`).
   * @default - same-account mode: scoped rights in this account and a CloudFormation service role
   */
  readonly assumedRoleName?: string;
  /**
   * Complete or partial ARN of a Secrets Manager secret holding the git, registry and cluster tokens.
   * @default - no secret: public config repositories and an unauthenticated registry only
   */
  readonly tokenSecretArn?: string;
}

/** Context key → environment variable. */
export const APP_CONFIG_SOURCES = {
  registryUri: 'CLM_REGISTRY',
  configSources: 'CLM_CONFIG_SOURCES',
  assumedRoleName: 'CLM_ASSUMED_ROLE',
  tokenSecretArn: 'CLM_TOKEN_SECRET_ARN',
} as const;

type ContextReader = (key: string) => unknown;

const CONFIG_SOURCE = /^[A-Za-z0-9][A-Za-z0-9_.-]*:git:\S+$/;
const ROLE_NAME = /^[\w+=,.@-]{1,64}$/;

/** Read the config from context first, then the environment; throws naming the bad key and value. */
export function readAppConfig(
  context: ContextReader,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ClmAppConfig {
  const value = (key: keyof typeof APP_CONFIG_SOURCES): unknown =>
    context(key) ?? (env[APP_CONFIG_SOURCES[key]] || undefined);
  const text = (key: keyof typeof APP_CONFIG_SOURCES): string | undefined => {
    const raw = value(key);
    if (raw === undefined || raw === null || raw === '') return undefined;
    if (typeof raw !== 'string') throw new Error(`CDK context ${key} must be a string, got ${JSON.stringify(raw)}`);
    return raw.trim();
  };

  const rawSources = value('configSources');
  const configSources = (
    Array.isArray(rawSources) ? rawSources.map(String) : typeof rawSources === 'string' ? rawSources.split(',') : []
  )
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const badSources = configSources.filter((s) => !CONFIG_SOURCE.test(s));
  if (badSources.length > 0) {
    throw new Error(
      `configSources (context or ${APP_CONFIG_SOURCES.configSources}): expected NAME:git:URL entries separated by commas, got ${badSources.map((s) => JSON.stringify(s)).join(', ')}`,
    );
  }
  const assumedRoleName = text('assumedRoleName');
  if (assumedRoleName !== undefined && !ROLE_NAME.test(assumedRoleName)) {
    throw new Error(
      `assumedRoleName (context or ${APP_CONFIG_SOURCES.assumedRoleName}): ${JSON.stringify(assumedRoleName)} is not an IAM role name`,
    );
  }
  const tokenSecretArn = text('tokenSecretArn');
  if (tokenSecretArn !== undefined && !/^arn:aws[\w-]*:secretsmanager:[\w-]+:\d{12}:secret:.+$/.test(tokenSecretArn)) {
    throw new Error(
      `tokenSecretArn (context or ${APP_CONFIG_SOURCES.tokenSecretArn}): ${JSON.stringify(tokenSecretArn)} is not a Secrets Manager secret ARN`,
    );
  }
  return {
    registryUri: text('registryUri'),
    configSources,
    assumedRoleName,
    tokenSecretArn,
  };
}
