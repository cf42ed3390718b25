import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import { CloudWatchHealthAlarms } from '../../../lambdas/adapters/aws/cloudwatch-health-alarms';
import { ThrottledError } from '../../../lambdas/shared/errors';
import { sdkError } from './sdk-errors';

const cloudWatch = mockClient(CloudWatchClient);
const alarms = () => new CloudWatchHealthAlarms(new CloudWatchClient({ region: 'eu-central-1' }));

beforeEach(() => cloudWatch.reset());

describe('CloudWatchHealthAlarms', () => {
  it('reads the state of a metric or composite alarm by name', async () => {
    // Arrange
    cloudWatch
      .on(DescribeAlarmsCommand, { AlarmNames: ['web-5xx'] })
      .resolves({ MetricAlarms: [{ AlarmName: 'web-5xx', StateValue: 'ALARM' }] })
      .on(DescribeAlarmsCommand, { AlarmNames: ['pool-health'] })
      .resolves({ CompositeAlarms: [{ AlarmName: 'pool-health', StateValue: 'OK' }] });

    // Act
    const states = [await alarms().alarmState('web-5xx'), await alarms().alarmState('pool-health')];

    // Assert
    expect(states).toEqual(['ALARM', 'OK']);
    expect(cloudWatch).toHaveReceivedCommandWith(DescribeAlarmsCommand, {
      AlarmNames: ['web-5xx'],
      AlarmTypes: ['MetricAlarm', 'CompositeAlarm'],
    });
  });

  it('answers undefined for an alarm that does not exist', async () => {
    cloudWatch.on(DescribeAlarmsCommand).resolves({ MetricAlarms: [], CompositeAlarms: [] });
    await expect(alarms().alarmState('nope')).resolves.toBeUndefined();
  });

  it('turns throttling into a retryable error naming the call', async () => {
    cloudWatch.on(DescribeAlarmsCommand).rejects(sdkError('ThrottlingException', 'Rate exceeded'));
    const error = await alarms()
      .alarmState('web-5xx')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ThrottledError);
    expect((error as Error).message).toContain('CloudWatch DescribeAlarms web-5xx');
  });
});
