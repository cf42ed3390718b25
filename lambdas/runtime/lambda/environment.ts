import { TASK_ENV } from './task-environment';
import type { TaskEnvName } from './task-environment';
import { ConfigError } from '../../shared/errors';

/** The settings a Lambda task reads from the environment the CDK app sets (infra/task-environment.ts). */
export interface LambdaEnvironment {
  /** Lambda's own region (`AWS_REGION`): the table, the bucket, the secret and KMS live here. */
  readonly region: string;
  /** One endpoint for every AWS service (moto, DynamoDB Local): `CLM_AWS_ENDPOINT`, else `AWS_ENDPOINT_URL`. */
  readonly endpoint?: string;
  /** `CLM_ASSUMED_ROLE`: the role name assumed in each cluster's account; unset in same-account mode. */
  readonly assumedRole?: string;
  /** `CLM_STACK_ROLE_ARN`: same-account mode's CloudFormation service role. */
  readonly stackRoleArn?: string;
  /** `CLM_SECRET_ARN`: the secret holding `{registryToken, gitToken, clusterToken}`. */
  readonly secretArn?: string;
  /** `CLM_EXTERNAL_ID`: what the cluster accounts' access role requires when assumed (ClmClusterAccess). */
  readonly externalId?: string;
  /** `CLM_STACK_ROLE_NAME`: cross-account mode's CloudFormation service role, by name in each cluster account. */
  readonly stackRoleName?: string;
  /** A variable the task cannot work without; a ConfigError naming it when unset or empty. */
  required(name: TaskEnvName): string;
  /** A variable with a default: undefined when unset or empty. */
  optional(name: TaskEnvName): string | undefined;
}

export function lambdaEnvironment(env: Readonly<Record<string, string | undefined>>): LambdaEnvironment {
  const optional = (name: string): string | undefined => env[name] || undefined;
  const endpoint = optional('CLM_AWS_ENDPOINT') ?? optional('AWS_ENDPOINT_URL');
  const assumedRole = optional(TASK_ENV.assumedRoleName);
  const stackRoleArn = optional(TASK_ENV.stackRoleArn);
  const secretArn = optional(TASK_ENV.secretArn);
  const externalId = optional(TASK_ENV.externalId);
  const stackRoleName = optional(TASK_ENV.stackRoleName);
  return {
    region: optional('AWS_REGION') ?? optional('AWS_DEFAULT_REGION') ?? 'us-east-1',
    ...(endpoint ? { endpoint } : {}),
    ...(assumedRole ? { assumedRole } : {}),
    ...(stackRoleArn ? { stackRoleArn } : {}),
    ...(secretArn ? { secretArn } : {}),
    optional,
    ...(externalId ? { externalId } : {}),
    ...(stackRoleName ? { stackRoleName } : {}),
    required(name) {
      const value = optional(name);
      if (!value)
        throw new ConfigError(
          `environment variable ${name} is not set; the CDK app sets it (infra/task-environment.ts)`,
        );
      return value;
    },
  };
}
