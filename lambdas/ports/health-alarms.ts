/** CloudWatch alarm states (DescribeAlarms' StateValue). */
export type AlarmState = 'OK' | 'ALARM' | 'INSUFFICIENT_DATA';

/** Named CloudWatch alarms in the cluster's account and region: the roll's health gate reads one per pool. */
export interface HealthAlarms {
  /** The alarm's state; undefined when no metric or composite alarm has that name. */
  alarmState(name: string): Promise<AlarmState | undefined>;
}
