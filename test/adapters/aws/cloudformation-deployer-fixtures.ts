/** Arrange helpers shared by the CloudFormationStackDeployer tests: the mocked client, a stack spec and stack. */
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import type { Stack } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { CloudFormationStackDeployer } from '../../../lambdas/adapters/aws/cloudformation-stack-deployer';
import { sdkError } from './sdk-errors';

/** The mocked CloudFormation client; each test file resets it in `beforeEach`. */
export const cfn = mockClient(CloudFormationClient);
export const STACK_ID = 'arn:aws:cloudformation:eu-central-1:123456789012:stack/kube-1/0a1b';
export const spec = {
  name: 'kube-1',
  templateBody: '{"Resources":{}}',
  tags: { 'kubernetes.io/cluster/aws:123:eu-central-1:kube-1': 'owned', application: 'kubernetes' },
};

export function stack(overrides: Partial<Stack> = {}): Stack {
  return {
    StackName: 'kube-1',
    StackId: STACK_ID,
    StackStatus: 'UPDATE_COMPLETE',
    CreationTime: new Date('2026-01-01T00:00:00Z'),
    EnableTerminationProtection: true,
    ...overrides,
  };
}

/** What CloudFormation answers DescribeStacks for a stack it does not know. */
export const missing = (): Error => sdkError('ValidationError', 'Stack with id kube-1 does not exist');

/** A deployer that does not sleep between polls. */
export function deployer(
  options: ConstructorParameters<typeof CloudFormationStackDeployer>[1] = {},
): CloudFormationStackDeployer {
  return new CloudFormationStackDeployer(new CloudFormationClient({ region: 'eu-central-1' }), {
    sleep: async () => undefined,
    ...options,
  });
}
