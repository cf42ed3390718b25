import { DescribeAlarmsCommand, type CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import type { AlarmState, HealthAlarms } from '../../ports/health-alarms';
import { toClmError } from './aws-errors';

const STATES: ReadonlySet<string> = new Set(['OK', 'ALARM', 'INSUFFICIENT_DATA']);

/** HealthAlarms over CloudWatch DescribeAlarms (metric and composite alarms) in one account and region. */
export class CloudWatchHealthAlarms implements HealthAlarms {
  constructor(private readonly cloudWatch: CloudWatchClient) {}

  async alarmState(name: string): Promise<AlarmState | undefined> {
    try {
      const out = await this.cloudWatch.send(
        new DescribeAlarmsCommand({ AlarmNames: [name], AlarmTypes: ['MetricAlarm', 'CompositeAlarm'] }),
      );
      const alarm = [...(out.MetricAlarms ?? []), ...(out.CompositeAlarms ?? [])].find((a) => a.AlarmName === name);
      const state = alarm?.StateValue;
      return state && STATES.has(state) ? (state as AlarmState) : undefined;
    } catch (error) {
      throw toClmError(error, `CloudWatch DescribeAlarms ${name}`);
    }
  }
}
