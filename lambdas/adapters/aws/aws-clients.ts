/**
 * AWS SDK clients with every client class at hand (the CLI against AWS, the tests): aws-kit-clients.ts with the full
 * kit. A Lambda task builds its clients from the kit of its own ports instead (runtime/lambda/ports/).
 */
import { FULL_AWS_KIT } from './full-aws-kit';
import { kitAccountClients, kitAwsClients } from './aws-kit-clients';
import type { AccountClientOptions, AwsClientOptions, AwsClients } from './aws-kit-clients';

export {
  DEFAULT_MAX_ATTEMPTS,
  ROLE_SESSION_NAME,
  assumeRoleCredentials,
  awsEndpointFromEnv,
  roleArn,
  verifiedCredentials,
} from './aws-kit-clients';
export type { AccountClientOptions, AwsClientOptions, AwsClients, AwsCredentials } from './aws-kit-clients';

export function createAwsClients(options: AwsClientOptions): AwsClients {
  return kitAwsClients(FULL_AWS_KIT, options);
}

/**
 * Clients acting in one cluster's account: optionally through an assumed role, always verified against the account
 * before the first call goes out.
 */
export function createAccountClients(options: AccountClientOptions): AwsClients {
  return kitAccountClients(FULL_AWS_KIT, options);
}
