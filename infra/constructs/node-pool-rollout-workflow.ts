import type { Duration } from 'aws-cdk-lib';
import type { Grant, IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { TASK_FUNCTIONS } from '../state-machine-substitutions';
import { AslStateMachine } from './asl-state-machine';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';

export interface NodePoolRolloutWorkflowProps {
  /** The RollNodePool task (lambdas/handlers/roll-node-pool.ts). */
  readonly rollNodePool: IFunction;
  /**
   * @default RetentionDays.THREE_MONTHS
   */
  readonly logRetention?: RetentionDays;
  /**
   * @default - none
   */
  readonly timeout?: Duration;
}

/**
 * statemachines/node-pool-rollout.asl.json: rolls one node pool (observe → act → wait) until done, or hands over
 * with CONTINUE before its history grows long. Started by ClusterUpdateWorkflow, one execution at a time per pool.
 */
export class NodePoolRolloutWorkflow extends Construct {
  public readonly stateMachine: StateMachine;
  public readonly failureAlarm: Alarm;

  constructor(scope: Construct, id: string, props: NodePoolRolloutWorkflowProps) {
    super(scope, id);
    const machine = new AslStateMachine(this, 'StateMachine', {
      definition: 'nodePoolRollout',
      substitutions: { [TASK_FUNCTIONS.RollNodePool.placeholder]: props.rollNodePool.functionArn },
      logRetention: props.logRetention,
      timeout: props.timeout,
    });
    this.stateMachine = machine.stateMachine;
    this.failureAlarm = machine.failureAlarm;
    props.rollNodePool.grantInvoke(this.stateMachine);
  }

  grantStartExecution(grantee: IGrantable): Grant {
    return this.stateMachine.grantStartExecution(grantee);
  }
}
