import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  Metric,
  SingleValueWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { CLM_METRICS, CLM_SERVICE_NAME, METRIC_NAMESPACE } from '../../lambdas/contracts/metrics';
import { acknowledge } from '../nag';

export interface ClmMonitoringProps {
  /** The state machine whose executions the dashboard counts by outcome. */
  readonly clusterUpdate: StateMachine;
  /** Alarms that notify the topic (the state machines' failure alarms). */
  readonly alarms: readonly Alarm[];
  /** Functions whose errors alarm (the triggered ones: a failing webhook or dispatcher is silent otherwise). */
  readonly watchedFunctions: ReadonlyMap<string, IFunction>;
  /** @default - no subscription */
  readonly alarmEmail?: string;
}

const PERIOD = Duration.minutes(5);

/** One of CLM's own metrics (lambdas/contracts/metrics.ts), as Powertools publishes it: dimension `service`. */
export function clmMetric(name: string, statistic: 'Sum' | 'Maximum', label: string): Metric {
  return new Metric({
    namespace: METRIC_NAMESPACE,
    metricName: name,
    dimensionsMap: { service: CLM_SERVICE_NAME },
    statistic,
    period: PERIOD,
    label,
  });
}

/**
 * Telling people: an SNS topic every alarm notifies (the state machines' failed executions, a halted rollout,
 * errors of the webhook and the dispatcher), and a dashboard: executions by outcome, clusters behind their
 * target, updates started and running, halted rollouts, nodes replaced and blocked drains.
 */
export class ClmMonitoring extends Construct {
  public readonly topic: Topic;
  public readonly dashboard: Dashboard;
  public readonly haltAlarm: Alarm;

  constructor(scope: Construct, id: string, props: ClmMonitoringProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Alarms', { displayName: 'CLM alarms', enforceSSL: true });
    acknowledge(
      this.topic,
      'AwsSolutions-SNS2',
      'CloudWatch alarms cannot publish to a topic encrypted with the AWS managed SNS key, and a customer managed key for alarm texts (no secrets in them) adds cost for nothing; the topic enforces TLS.',
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    this.haltAlarm = new Alarm(this, 'WaveHalted', {
      alarmDescription:
        'A rollout is halted: a cluster failed its update; clm status (or the WaveHalted event) names it',
      metric: clmMetric(CLM_METRICS.haltedWaves, 'Maximum', 'halted rollouts'),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    const errorAlarms = [...props.watchedFunctions].map(
      ([name, fn]) =>
        new Alarm(this, `${name}Errors`, {
          alarmDescription: `${name} failed: look at its log group`,
          metric: fn.metricErrors({ period: PERIOD, statistic: 'Sum' }),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
    );
    const action = new SnsAction(this.topic);
    for (const alarm of [...props.alarms, this.haltAlarm, ...errorAlarms]) {
      alarm.addAlarmAction(action);
    }
    this.dashboard = this.createDashboard(props.clusterUpdate);
  }

  private createDashboard(machine: StateMachine): Dashboard {
    const options = { period: PERIOD, statistic: 'Sum' };
    const dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.days(1) });
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Cluster updates by outcome',
        width: 12,
        left: [
          machine.metricStarted({ ...options, label: 'started' }),
          machine.metricSucceeded({ ...options, label: 'succeeded' }),
          machine.metricFailed({ ...options, label: 'failed' }),
          machine.metricTimedOut({ ...options, label: 'timed out' }),
          machine.metricAborted({ ...options, label: 'aborted' }),
        ],
      }),
      new GraphWidget({
        title: 'Clusters behind their target',
        width: 12,
        left: [clmMetric(CLM_METRICS.clustersBehindTarget, 'Maximum', 'behind target')],
        right: [
          clmMetric(CLM_METRICS.updatesRunning, 'Maximum', 'updates running'),
          clmMetric(CLM_METRICS.haltedWaves, 'Maximum', 'halted rollouts'),
        ],
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Nodes replaced',
        width: 8,
        left: [clmMetric(CLM_METRICS.nodesReplaced, 'Sum', 'nodes replaced')],
      }),
      new GraphWidget({
        title: 'Blocked drains (roll steps held by a PodDisruptionBudget)',
        width: 8,
        left: [clmMetric(CLM_METRICS.drainsBlocked, 'Sum', 'blocked drain steps')],
      }),
      new SingleValueWidget({
        title: 'Now',
        width: 8,
        metrics: [
          clmMetric(CLM_METRICS.clustersBehindTarget, 'Maximum', 'behind target'),
          clmMetric(CLM_METRICS.updatesStarted, 'Sum', 'started (5 min)'),
          clmMetric(CLM_METRICS.haltedWaves, 'Maximum', 'halted rollouts'),
        ],
      }),
    );
    return dashboard;
  }
}
