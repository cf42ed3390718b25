import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Names, RemovalPolicy } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { IGrantable, Grant } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ASL_FILES, placeholdersIn } from '../state-machine-substitutions';
import type { StateMachineKey } from '../state-machine-substitutions';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface AslStateMachineProps {
  /** Which ASL file under `statemachines/`. */
  readonly definition: StateMachineKey;
  /** Every `${Key}` of the ASL file and its value; a missing or extra key fails synth. */
  readonly substitutions: Readonly<Record<string, string>>;
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
 * (`DefinitionBody.fromString`, so `cdk diff` shows ASL changes) with `definitionSubstitutions`. It logs ALL events
 * without execution data, traces with X-Ray, and alarms on the first failed execution. File-based definitions get
 * no automatic IAM: the owning construct grants what the tasks call.
 */
export class AslStateMachine extends Construct {
  public readonly stateMachine: StateMachine;
  public readonly logGroup: LogGroup;
  /** ExecutionsFailed ≥ 1 within 5 minutes. Add actions (SNS, chat) where the app knows where to send them. */
  public readonly failureAlarm: Alarm;

  constructor(scope: Construct, id: string, props: AslStateMachineProps) {
    super(scope, id);
    const file = ASL_FILES[props.definition];
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    checkSubstitutions(file, placeholdersIn(text), Object.keys(props.substitutions));

    this.logGroup = new LogGroup(this, 'Logs', {
      // The vendedlogs prefix keeps CloudWatch Logs' resource policy small when many state machines log.
      logGroupName: `/aws/vendedlogs/states/${Names.uniqueResourceName(this, { maxLength: 200, separator: '-' })}`,
      retention: props.logRetention ?? RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stateMachine = new StateMachine(this, 'Resource', {
      stateMachineType: StateMachineType.STANDARD,
      definitionBody: DefinitionBody.fromString(text),
      definitionSubstitutions: { ...props.substitutions },
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
