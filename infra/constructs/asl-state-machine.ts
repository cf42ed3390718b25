import { Arn, ArnFormat, Aws, Duration, Names, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IGrantable, Grant } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import {
  ASL_FILES,
  childMachinesIn,
  functionPlaceholder,
  placeholdersIn,
  readAsl,
  stateMachinePlaceholder,
  taskNamesIn,
} from '../../lambdas/runtime/asl-files';
import type { StateMachineKey } from '../../lambdas/runtime/asl-files';

/** The EventBridge rule Step Functions manages to learn when a `.sync` child execution ends. */
const SYNC_RULE = 'StepFunctionsGetEventsForStepFunctionsExecutionRule';

export interface AslStateMachineProps {
  /** Which ASL file under `statemachines/`. */
  readonly definition: StateMachineKey;
  /** The task functions by task name; the machine gets those its ASL names (`${<Task>FunctionArn}`) and may invoke them. */
  readonly functions: ReadonlyMap<string, IFunction>;
  /** The state machines it may start as children (`${<Key>StateMachineArn}`, `startExecution.sync:2`). */
  readonly children?: Partial<Readonly<Record<StateMachineKey, StateMachine>>>;
  /**
   * The ASL text, for tests that add a state.
   * @default - the committed file
   */
  readonly text?: string;
  /**
   * Retention of the execution log group.
   * @default RetentionDays.THREE_MONTHS
   */
  readonly logRetention?: RetentionDays;
  /**
   * Maximum execution duration.
   * @default - none (Step Functions' limit of one year)
   */
  readonly timeout?: Duration;
}

/**
 * A Standard state machine whose definition is an ASL file of `statemachines/`, kept inline in the template
 * (`DefinitionBody.fromString`, so `cdk diff` shows ASL changes) with `definitionSubstitutions` derived from the
 * file: each `${<Task>FunctionArn}` from `functions`, each `${<Key>StateMachineArn}` from `children`; a placeholder
 * with no value fails synth. It may invoke exactly those functions and start, watch and stop those children. It logs
 * ALL events without execution data, traces with X-Ray, and alarms on the first failed execution.
 *
 * @example
 * const rollout = new AslStateMachine(this, 'NodePoolRollout', { definition: 'nodePoolRollout', functions });
 * new AslStateMachine(this, 'ClusterUpdate', { definition: 'clusterUpdate', functions, children: { nodePoolRollout: rollout.stateMachine } });
 */
export class AslStateMachine extends Construct {
  public readonly stateMachine: StateMachine;
  public readonly logGroup: LogGroup;
  /** ExecutionsFailed ≥ 1 within 5 minutes. Add actions (SNS, chat) where the app knows where to send them. */
  public readonly failureAlarm: Alarm;

  constructor(scope: Construct, id: string, props: AslStateMachineProps) {
    super(scope, id);
    const file = ASL_FILES[props.definition];
    const text = props.text ?? readAsl(props.definition);
    const tasks = taskNamesIn(text).map((name) => ({ name, fn: props.functions.get(name) }));
    const children = childMachinesIn(text).map((key) => ({ key, machine: props.children?.[key] }));
    const substitutions: Record<string, string> = {};
    for (const { name, fn } of tasks) if (fn) substitutions[functionPlaceholder(name)] = fn.functionArn;
    for (const { key, machine } of children)
      if (machine) substitutions[stateMachinePlaceholder(key)] = machine.stateMachineArn;
    checkSubstitutions(file, placeholdersIn(text), Object.keys(substitutions));

    this.logGroup = new LogGroup(this, 'Logs', {
      // The vendedlogs prefix keeps CloudWatch Logs' resource policy small when many state machines log.
      logGroupName: `/aws/vendedlogs/states/${Names.uniqueResourceName(this, { maxLength: 200, separator: '-' })}`,
      retention: props.logRetention ?? RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stateMachine = new StateMachine(this, 'Resource', {
      stateMachineType: StateMachineType.STANDARD,
      definitionBody: DefinitionBody.fromString(text),
      definitionSubstitutions: substitutions,
      logs: { destination: this.logGroup, level: LogLevel.ALL, includeExecutionData: false },
      tracingEnabled: true,
      timeout: props.timeout,
    });
    this.failureAlarm = new Alarm(this, 'ExecutionsFailed', {
      alarmDescription: `An execution of ${file} failed: look at the execution's last state and the cluster's problems`,
      metric: this.stateMachine.metricFailed({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    for (const { fn } of tasks) fn!.grantInvoke(this.stateMachine);
    for (const { machine } of children) this.grantRunChild(machine!);
  }

  /** `startExecution.sync:2`: start the child, poll it, stop it if this execution is stopped. */
  private grantRunChild(child: StateMachine): void {
    child.grantStartExecution(this.stateMachine);
    const executions = Arn.format(
      {
        service: 'states',
        resource: 'execution',
        resourceName: `${child.stateMachineName}:*`,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      },
      Stack.of(this),
    );
    this.stateMachine.addToRolePolicy(
      new PolicyStatement({ actions: ['states:DescribeExecution', 'states:StopExecution'], resources: [executions] }),
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

function checkSubstitutions(file: string, expected: readonly string[], given: readonly string[]): void {
  const missing = expected.filter((key) => !given.includes(key));
  const extra = given.filter((key) => !expected.includes(key));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `${file}: definitionSubstitutions do not match the placeholders (missing: ${missing.join(', ') || 'none'}; not in the file: ${extra.join(', ') || 'none'})`,
    );
  }
}
