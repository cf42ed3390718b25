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
    const out = await kms.send(new DescribeKeyCommand({ KeyId: keyId }));
    const arn = out.KeyMetadata?.Arn;
    if (!arn) throw new ConfigError(`KMS DescribeKey ${keyId} returned no key`, { location });
    return arn;
  } catch (error) {
    if (awsErrorName(error) === 'NotFoundException')
      throw new ConfigError(
        `KMS key ${keyId} does not exist in the cluster's account and region (the etcd stack needs it: create the key and alias first)`,
        { cause: error, location },
      );
    throw toClmError(error, `KMS DescribeKey ${keyId}`);
  }
}
