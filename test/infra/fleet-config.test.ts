import { readFleetConfig } from '../../infra/fleet-config';

const none = () => undefined;

describe('readFleetConfig', () => {
  it('defaults to a pass every 5 minutes, a generated webhook secret, no e-mail and default settings', () => {
    expect(readFleetConfig(none, {})).toEqual({ dispatchIntervalMinutes: 5, fleetSettings: {} });
  });

  it('reads context first, then the environment; settings from context keys over CLM_FLEET_SETTINGS', () => {
    const context: Record<string, unknown> = { dispatchIntervalMinutes: '10', maxConcurrent: '25' };
    const config = readFleetConfig((k) => context[k], {
      CLM_DISPATCH_INTERVAL_MINUTES: '2',
      CLM_WEBHOOK_SECRET_ARN: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:hook',
      CLM_ALARM_EMAIL: 'ops@example.org',
      CLM_FLEET_SETTINGS: '{"maxConcurrent": 5, "waveOrder": "dev,prod"}',
    });
    expect(config).toEqual({
      dispatchIntervalMinutes: 10,
      webhookSecretArn: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:hook',
      alarmEmail: 'ops@example.org',
      fleetSettings: { maxConcurrent: '25', waveOrder: 'dev,prod' },
    });
  });

  it('fails synth naming the bad key', () => {
    const with_ =
      (context: Record<string, unknown>, env: Record<string, string> = {}) =>
      () =>
        readFleetConfig((k) => context[k], env);
    expect(with_({ dispatchIntervalMinutes: '0' })).toThrow(/dispatchIntervalMinutes: "0" is not a whole number/);
    expect(with_({ webhookSecretArn: 'hook' })).toThrow(/webhookSecretArn: "hook" is not a Secrets Manager/);
    expect(with_({ alarmEmail: 'ops' })).toThrow(/alarmEmail: "ops" is not an e-mail/);
    expect(with_({ maxConcurrent: '0' })).toThrow(/fleet settings .*maxConcurrent/s);
    expect(with_({}, { CLM_FLEET_SETTINGS: 'max=3' })).toThrow(/CLM_FLEET_SETTINGS is not JSON/);
    expect(with_({ rollReservedConcurrency: '0' })).toThrow(/rollReservedConcurrency: "0" is not a whole number/);
    expect(with_({ maxConcurrentPerAccount: 'many' })).toThrow(/fleet settings .*maxConcurrentPerAccount/s);
  });

  it('reads the capacity settings: caps, pace, launch budget, soak, and the roll reservation', () => {
    const context: Record<string, unknown> = {
      maxConcurrentPerAccount: '40',
      launchesPerSecond: '1.8',
      rollReservedConcurrency: '600',
    };
    expect(readFleetConfig((k) => context[k], { CLM_FLEET_SETTINGS: '{"startsPerSecond": 50}' })).toEqual({
      dispatchIntervalMinutes: 5,
      rollReservedConcurrency: 600,
      fleetSettings: { startsPerSecond: 50, maxConcurrentPerAccount: '40', launchesPerSecond: '1.8' },
    });
  });
});
