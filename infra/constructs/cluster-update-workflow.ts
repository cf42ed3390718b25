import { Arn, ArnFormat, Aws, Stack } from 'aws-cdk-lib';
import type { Duration } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Grant, IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import {
  NODE_POOL_ROLLOUT_STATE_MACHINE_PLACEHOLDER,
  STATE_MACHINE_TASKS,
  TASK_FUNCTIONS,
} from '../state-machine-substitutions';
import { AslStateMachine } from './asl-state-machine';
import type { NodePoolRolloutWorkflow } from './node-pool-rollout-workflow';

type ClusterUpdateTask = (typeof STATE_MACHINE_TASKS.clusterUpdate)[number];

export interface ClusterUpdateWorkflowProps {
  /** One function per Lambda task of statemachines/cluster-update.asl.json, keyed by task name. */
  readonly functions: { readonly [K in ClusterUpdateTask]: IFunction };
  /** The child machine the Roll*Pools Maps start with `startExecution.sync:2`. */
  readonly rollout: NodePoolRolloutWorkflow;
  /**
   * @default RetentionDays.THREE_MONTHS
   */
  readonly logRetention?: RetentionDays;
  /**
   * @default - none
   */
  readonly timeout?: Duration;
}

/** The EventBridge rule Step Functions manages to learn when a `.sync` child execution ends. */
const SYNC_RULE = 'StepFunctionsGetEventsForStepFunctionsExecutionRule';

/**
 * statemachines/cluster-update.asl.json: one execution per cluster and target version (provision or decommission).
 * It may invoke its task functions, and start, watch and stop executions of the node-pool-rollout machine.
 *
 * @example
 * const rollout = new NodePoolRolloutWorkflow(this, 'Rollout', { rollNodePool });
 * const update = new ClusterUpdateWorkflow(this, 'ClusterUpdate', { functions, rollout });
 * update.grantStartExecution(dispatchFunction);
 */
export class ClusterUpdateWorkflow extends Construct {
  public readonly stateMachine: StateMachine;
  public readonly failureAlarm: Alarm;

  constructor(scope: Construct, id: string, props: ClusterUpdateWorkflowProps) {
    super(scope, id);
    const tasks: readonly ClusterUpdateTask[] = STATE_MACHINE_TASKS.clusterUpdate;
    const substitutions: Record<string, string> = {
      [NODE_POOL_ROLLOUT_STATE_MACHINE_PLACEHOLDER]: props.rollout.stateMachine.stateMachineArn,
    };
    for (const task of tasks) substitutions[TASK_FUNCTIONS[task].placeholder] = props.functions[task].functionArn;

    const machine = new AslStateMachine(this, 'StateMachine', {
      definition: 'clusterUpdate',
      substitutions,
      logRetention: props.logRetention,
      timeout: props.timeout,
    });
    this.stateMachine = machine.stateMachine;
    this.failureAlarm = machine.failureAlarm;

    for (const task of tasks) props.functions[task].grantInvoke(this.stateMachine);

    // startExecution.sync:2 — start the child, poll it, stop it if this execution is stopped.
    const child = props.rollout.stateMachine;
    child.grantStartExecution(this.stateMachine);
    const stack = Stack.of(this);
    this.stateMachine.addToRolePolicy(
      new PolicyStatement({
        actions: ['states:DescribeExecution', 'states:StopExecution'],
        resources: [
          Arn.format(
            {
              service: 'states',
              resource: 'execution',
              resourceName: `${child.stateMachineName}:*`,
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            },
            stack,
          ),
        ],
      }),
    );
    this.stateMachine.addToRolePolicy(
      new PolicyStatement({
        actions: ['events:PutTargets', 'events:PutRule', 'events:DescribeRule'],
        resources: [`arn:${Aws.PARTITION}:events:${Aws.REGION}:${Aws.ACCOUNT_ID}:rule/${SYNC_RULE}`],
      }),
    );
  }

  grantStartExecution(grantee: IGrantable): Grant {
    return this.stateMachine.grantStartExecution(grantee);
  }
}
