import { Annotations, CfnOutput, Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventField, Rule, RuleTargetInput } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, FilterRule, FunctionUrlAuthType, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Schedule, ScheduleExpression, ScheduleTargetInput } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { FLEET_EVENT_SOURCE } from '../../lambdas/contracts/fleet-events';
import {
  ENDED_EXECUTION_STATUSES,
  EXECUTION_EVENT_FIELDS,
  PUSH_EVENT_FIELDS,
  REGISTRY_SORT_KEY,
  REPORTED_EXECUTION_STATUSES,
  SCHEDULED_PASS_INPUT,
  type TriggerKind,
} from '../../lambdas/contracts/triggers';
import type { AnyTask } from '../../lambdas/tasks/define-task';

export interface TaskTriggersProps {
  /** The catalogue's tasks; those with `triggers` get theirs. */
  readonly tasks: readonly AnyTask[];
  readonly functions: ReadonlyMap<string, IFunction>;
  /** cluster-update: its executions' status changes trigger `execution-events` tasks. */
  readonly clusterUpdate: IStateMachine;
  /** The progress table; its stream carries the registry's changes when the registry is this table. */
  readonly table: ITable;
  /** The registry is CLM's own table (`registryUri=dynamodb://`): only then is there a stream to read. */
  readonly registryStream: boolean;
  /** Minutes between scheduled passes. */
  readonly dispatchIntervalMinutes: number;
}

/**
 * What invokes the functions that are not states of a state machine, derived from their tasks' `triggers`
 * (lambdas/tasks/define-task.ts; lambdas/contracts/triggers.ts says what each delivers):
 * - `http`: a Lambda Function URL (auth NONE: GitHub signs each delivery and the task checks the signature);
 * - `schedule`: an EventBridge Scheduler schedule every `dispatchIntervalMinutes`, with a fixed input;
 * - `registry-stream`: the table's stream, filtered to registry items, in batches;
 * - `execution-events`: a rule on the default bus for cluster-update executions that ended;
 * - `execution-status`: a rule on the default bus for cluster-update executions that started or ended (the detail);
 * - `push-events`: a rule on the default bus for PushAccepted;
 * - `pull-request-events`: a rule on the default bus for PullRequestAccepted (the detail).
 */
export class TaskTriggers extends Construct {
  /** The endpoint of each `http` task, by task name. */
  public readonly urls = new Map<string, string>();

  constructor(
    scope: Construct,
    id: string,
    private readonly props: TaskTriggersProps,
  ) {
    super(scope, id);
    for (const task of props.tasks) {
      for (const trigger of task.triggers ?? []) this.add(task.name, trigger.kind, props.functions.get(task.name)!);
    }
  }

  private add(name: string, kind: TriggerKind, fn: IFunction): void {
    switch (kind) {
      case 'http':
        return this.endpoint(name, fn);
      case 'schedule':
        return this.schedule(name, fn);
      case 'registry-stream':
        return this.stream(name, fn);
      case 'execution-events':
        return this.executionEvents(name, fn);
      case 'execution-status':
        return this.executionStatus(name, fn);
      case 'push-events':
        return this.pushEvents(name, fn);
      case 'pull-request-events':
        return this.pullRequestEvents(name, fn);
    }
  }

  private endpoint(name: string, fn: IFunction): void {
    const url = fn.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });
    this.urls.set(name, url.url);
    new CfnOutput(this, `${name}Url`, { value: url.url, description: `The endpoint of ${name}` });
  }

  private schedule(name: string, fn: IFunction): void {
    new Schedule(this, `${name}Schedule`, {
      description: `CLM ${name} every ${this.props.dispatchIntervalMinutes} min`,
      schedule: ScheduleExpression.rate(Duration.minutes(this.props.dispatchIntervalMinutes)),
      target: new LambdaInvoke(fn, {
        input: ScheduleTargetInput.fromObject({
          ...SCHEDULED_PASS_INPUT,
          periodMinutes: this.props.dispatchIntervalMinutes,
        }),
        retryAttempts: 2,
        maxEventAge: Duration.minutes(this.props.dispatchIntervalMinutes),
      }),
    });
  }

  private stream(name: string, fn: IFunction): void {
    if (!this.props.registryStream) {
      Annotations.of(this).addInfo(
        `${name}: the registry is not CLM's table (registryUri=dynamodb://), so its changes are found by the scheduled pass`,
      );
      return;
    }
    fn.addEventSource(
      new DynamoEventSource(this.props.table, {
        startingPosition: StartingPosition.LATEST,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(5),
        retryAttempts: 3,
        bisectBatchOnError: true,
        filters: [FilterCriteria.filter({ dynamodb: { Keys: { sk: { S: FilterRule.isEqual(REGISTRY_SORT_KEY) } } } })],
      }),
    );
  }

  private executionEvents(name: string, fn: IFunction): void {
    new Rule(this, `${name}ExecutionEnded`, {
      description: `CLM: a cluster-update execution ended; ${name} runs a pass so the next wave starts`,
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: { stateMachineArn: [this.props.clusterUpdate.stateMachineArn], status: [...ENDED_EXECUTION_STATUSES] },
      },
      targets: [
        new LambdaFunction(fn, {
          event: RuleTargetInput.fromObject({ trigger: 'execution', execution: fields(EXECUTION_EVENT_FIELDS) }),
          retryAttempts: 2,
        }),
      ],
    });
  }

  /** Every start and end of a cluster-update execution, however started; the function gets the event's detail. */
  private executionStatus(name: string, fn: IFunction): void {
    new Rule(this, `${name}ExecutionStatus`, {
      description: `CLM: a cluster-update execution started or ended; ${name} reports it`,
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: {
          stateMachineArn: [this.props.clusterUpdate.stateMachineArn],
          status: [...REPORTED_EXECUTION_STATUSES],
        },
      },
      targets: [new LambdaFunction(fn, { event: RuleTargetInput.fromEventPath('$.detail'), retryAttempts: 4 })],
    });
  }

  private pullRequestEvents(name: string, fn: IFunction): void {
    new Rule(this, `${name}PullRequestAccepted`, {
      description: `CLM: the webhook accepted a pull request; ${name} starts its plans`,
      eventPattern: { source: [FLEET_EVENT_SOURCE], detailType: ['PullRequestAccepted'] },
      targets: [new LambdaFunction(fn, { event: RuleTargetInput.fromEventPath('$.detail'), retryAttempts: 4 })],
    });
  }

  private pushEvents(name: string, fn: IFunction): void {
    new Rule(this, `${name}PushAccepted`, {
      description: `CLM: the webhook accepted a push; ${name} runs a pass over the clusters following its ref`,
      eventPattern: { source: [FLEET_EVENT_SOURCE], detailType: ['PushAccepted'] },
      targets: [
        new LambdaFunction(fn, {
          event: RuleTargetInput.fromObject({ trigger: 'webhook', push: fields(PUSH_EVENT_FIELDS) }),
          retryAttempts: 4,
        }),
      ],
    });
  }
}

function fields(paths: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(paths).map(([key, path]) => [key, EventField.fromPath(path)]));
}
