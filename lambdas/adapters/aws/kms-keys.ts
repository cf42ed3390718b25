import { DescribeKeyCommand } from '@aws-sdk/client-kms';
import type { KMSClient } from '@aws-sdk/client-kms';
import { ConfigError } from '../../shared/errors';
import { awsErrorName, toClmError } from './aws-errors';

/** KMS DescribeKey (CLM `resolveKeyID`): a key id, ARN or alias → the key's ARN; a missing key is a ConfigError naming it. */
export async function describeKeyArn(
  kms: KMSClient,
  keyId: string,
  location: { readonly clusterId?: string } = {},
): Promise<string> {
  try {
    return (await kms.send(new DescribeKeyCommand({ KeyId: keyId }))).KeyMetadata!.Arn!;
  } catch (error) {
    if (awsErrorName(error) === 'NotFoundException')
      throw new ConfigError(
        `KMS key ${keyId} does not exist in the cluster's account and region (the etcd stack needs it: create the key and alias first)`,
        { cause: error, location },
      );
    throw toClmError(error, `KMS DescribeKey ${keyId}`);
  }
}
