import { Arn, ArnFormat, Aws, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { TASK_ENV } from '../../lambdas/runtime/lambda/task-environment';
import type { AnyTask } from '../../lambdas/tasks/define-task';
import type { TaskGrants } from '../task-grants';

export interface FleetResources {
  /** The machine the dispatcher starts (`executions` port). */
  readonly clusterUpdate: StateMachine;
  /** The GitHub webhook secret (`webhooks` port). */
  readonly webhookSecret: ISecret;
  /** GitHub credentials for commit statuses and pull request plans (`forge` port); absent: nothing is reported. */
  readonly forgeSecret?: ISecret;
  /** GitHub's API URL (GitHub Enterprise Server: `https://HOST/api/v3`). */
  readonly githubApiUrl?: string;
  /** The dispatcher's settings (`fleet` port), as JSON in the environment. */
  readonly fleetSettings: Readonly<Record<string, unknown>>;
}

/**
 * The fleet ports' access and settings for one task function (its rows in infra/task-grants.ts): the settings for
 * `fleet`; describe/list (`read`) and start/redrive (`write`) of cluster-update executions for `executions`;
 * PutEvents on the default bus for `events`; the webhook secret for `webhooks`; the forge credentials for `forge`.
 */
export function grantFleetAccess(
  fn: LambdaFunction,
  task: AnyTask,
  grants: TaskGrants,
  resources: FleetResources,
): void {
  if (task.ports.fleet || task.ports.launches)
    fn.addEnvironment(TASK_ENV.fleetSettings, JSON.stringify(resources.fleetSettings));
  if (grants.executions) {
    fn.addEnvironment(TASK_ENV.clusterUpdateArn, resources.clusterUpdate.stateMachineArn);
    for (const statement of executionStatements(resources.clusterUpdate, grants.executions === 'write')) {
      fn.addToRolePolicy(statement);
    }
  }
  if (grants.events) {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['events:PutEvents'],
        resources: [`arn:${Aws.PARTITION}:events:${Aws.REGION}:${Aws.ACCOUNT_ID}:event-bus/default`],
      }),
    );
  }
  if (grants.webhookSecret) {
    resources.webhookSecret.grantRead(fn);
    fn.addEnvironment(TASK_ENV.webhookSecretArn, resources.webhookSecret.secretArn);
  }
  if (grants.forgeSecret && resources.forgeSecret) {
    resources.forgeSecret.grantRead(fn);
    fn.addEnvironment(TASK_ENV.forgeSecretArn, resources.forgeSecret.secretArn);
  }
  if (grants.forgeSecret && resources.githubApiUrl) fn.addEnvironment(TASK_ENV.githubApiUrl, resources.githubApiUrl);
}

function executionStatements(machine: StateMachine, write: boolean): PolicyStatement[] {
  const executions = Arn.format(
    {
      service: 'states',
      resource: 'execution',
      resourceName: `${machine.stateMachineName}:*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    },
    Stack.of(machine),
  );
  return [
    new PolicyStatement({
      actions: ['states:ListExecutions', ...(write ? ['states:StartExecution'] : [])],
      resources: [machine.stateMachineArn],
    }),
    new PolicyStatement({
      actions: ['states:DescribeExecution', ...(write ? ['states:RedriveExecution'] : [])],
      resources: [executions],
    }),
  ];
}
