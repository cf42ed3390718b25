import { Option } from 'commander';

/**
 * The options that reach real clusters and accounts, shared by the commands that act on them. Secrets also come
 * from the environment, so they stay out of shell history and process lists; a flag given wins.
 */

/** `--token` (env CLM_TOKEN): the bearer token for an HTTP registry and for token-mode API servers. */
export function tokenOption(description = 'bearer token for the registry and the API servers'): Option {
  return new Option('--token <token>', description).env('CLM_TOKEN');
}

/** `--assumed-role` (env CLM_ASSUMED_ROLE): cross-account mode, as the deployed tasks use it (docs/credentials.md). */
export function assumedRoleOption(): Option {
  return new Option('--assumed-role <name>', "role assumed in each cluster's account (real AWS)").env(
    'CLM_ASSUMED_ROLE',
  );
}

/** `--external-id` (env CLM_EXTERNAL_ID): what the cluster accounts' access role requires (ClmClusterAccess). */
export function externalIdOption(): Option {
  return new Option('--external-id <id>', "the ExternalId the assumed role's trust policy requires").env(
    'CLM_EXTERNAL_ID',
  );
}
