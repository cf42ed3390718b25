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

  it('reads the capacity settings: caps per account and region, the start pace, the launch budget, the soak', () => {
    expect(
      fleetSettings({
        maxConcurrentPerAccount: '5',
        maxConcurrentPerRegion: '40',
        startsPerSecond: '0.5',
        launchesPerSecond: '1.8',
        launchBurst: '400',
        launchShards: '4',
        waveSoakMs: '1800000',
        regions: 'eu-central-1, eu-west-1',
      }),
    ).toMatchObject({
      maxConcurrentPerAccount: 5,
      maxConcurrentPerRegion: 40,
      startsPerSecond: 0.5,
      launchesPerSecond: 1.8,
      launchBurst: 400,
      launchShards: 4,
      waveSoakMs: 1_800_000,
      regions: ['eu-central-1', 'eu-west-1'],
    });
    expect(() => fleetSettings({ regions: 'Frankfurt' })).toThrow(/regions.0: expected region names/);
    expect(fleetSettings().maxConcurrentPerAccount).toBeUndefined();
    expect(() => fleetSettings({ maxConcurrentPerAccount: '0', launchesPerSecond: '-1' })).toThrow(
      /maxConcurrentPerAccount: Too small[\s\S]*launchesPerSecond: Too small/,
    );
    expect(() => fleetSettings({ launchBurst: 2, launchShards: 4 })).toThrow(/launchBurst: 2 is below launchShards 4/);
  });
});
