import { DEFAULT_FLEET_SETTINGS, fleetSettings } from '../../../lambdas/core/dispatch/fleet-settings';
import { ValidationError } from '../../../lambdas/shared/errors';

describe('fleetSettings', () => {
  it('fills every setting with its default', () => {
    expect(fleetSettings()).toEqual(DEFAULT_FLEET_SETTINGS);
    expect(DEFAULT_FLEET_SETTINGS).toMatchObject({ waveOrder: ['test', 'staging', 'production'], maxConcurrent: 10 });
  });

  it('reads strings as environment variables and flags give them', () => {
    expect(
      fleetSettings({ waveOrder: 'dev, test ,prod', maxConcurrent: '3', wavesByCriticality: 'false', retryBaseMs: '' }),
    ).toMatchObject({
      waveOrder: ['dev', 'test', 'prod'],
      maxConcurrent: 3,
      wavesByCriticality: false,
      retryBaseMs: 900000,
    });
  });

  it('names every bad setting at once', () => {
    const read = () => fleetSettings({ maxConcurrent: '0', waveOrder: ' , ', waves: 'x' });
    expect(read).toThrow(ValidationError);
    expect(read).toThrow(/maxConcurrent: Too small: expected number to be >=1/);
    expect(read).toThrow(/waveOrder: name at least one environment/);
    expect(read).toThrow(/\(settings\): Unrecognized key: "waves"/);
    expect(() => fleetSettings({ retryBaseMs: 10, retryMaxMs: 5 })).toThrow(/retryMaxMs: 5 is below retryBaseMs 10/);
  });
});
