/** Builds SDK v3 service exceptions the way the SDK deserialises them (name, $fault, $metadata, message). */
import { CloudFormationServiceException } from '@aws-sdk/client-cloudformation';

export function sdkError(name: string, message: string, httpStatusCode = 400): Error {
  return new CloudFormationServiceException({
    name,
    message,
    $fault: httpStatusCode >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode },
  });
}

export function networkError(code = 'ECONNRESET'): Error {
  return Object.assign(new Error(`socket hang up (${code})`), { code });
}
