import type { AnyTask, PortName } from '../lambdas/tasks/define-task';

/**
 * The AWS SDK packages each port needs, as the runtime builds it (runtime/lambda/ports/): a task's bundle may import
 * the union over its ports and nothing else. The tokens secret (Secrets Manager) is read by the ports that use a
 * token: the registry, the git sources and the API servers.
 */
export const SDK_OF_PORT: Readonly<Record<PortName, readonly string[]>> = {
  progress: ['client-dynamodb', 'lib-dynamodb'],
  fleet: ['client-dynamodb', 'lib-dynamodb'],
  registry: ['client-dynamodb', 'lib-dynamodb', 'client-secrets-manager'],
  artifacts: ['client-s3'],
  clock: [],
  sources: ['client-secrets-manager'],
  templates: ['client-ec2', 'client-sts'],
  lookups: ['client-ec2', 'client-sts'],
  values: ['client-acm', 'client-ec2', 'client-kms', 'client-sts'],
  alarms: ['client-cloudwatch', 'client-sts'],
  eks: ['client-eks', 'client-sts'],
  quotas: ['client-ec2', 'client-service-quotas', 'client-sts'],
  leftovers: ['client-ec2', 'client-elastic-load-balancing', 'client-elastic-load-balancing-v2', 'client-sts'],
  pools: ['client-auto-scaling', 'client-ec2', 'client-sts'],
  nodeFiles: ['client-kms', 'client-s3', 'client-sts'],
  stacks: ['client-cloudformation', 'client-s3', 'client-sts'],
  secrets: ['client-kms'],
  kube: ['client-sts', 'client-secrets-manager'],
  executions: ['client-sfn'],
  events: ['client-eventbridge'],
  webhooks: ['client-secrets-manager'],
  forge: ['client-secrets-manager'],
  launches: ['client-dynamodb', 'lib-dynamodb'],
  // The twin is simulated: no SDK client (the live reads go through the task's other ports).
  rehearsals: [],
};

/** The AWS SDK packages of a task's ports (without the `@aws-sdk/` scope): what its steps load between them. */
export function sdkOfTask(task: AnyTask): string[] {
  return [...new Set(Object.keys(task.ports).flatMap((port) => SDK_OF_PORT[port as PortName]))].sort();
}
