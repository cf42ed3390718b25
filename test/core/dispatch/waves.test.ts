import type { RolloutMember } from '../../../lambdas/core/dispatch/waves';
import { compareWaves, gateRollout, waveOf } from '../../../lambdas/core/dispatch/waves';
import { COMMIT_B, settings } from './fleet-fixtures';

const fleet = settings();

function member(id: string, environment: string, state: RolloutMember['state'], criticalityLevel = 1): RolloutMember {
  return {
    clusterId: id,
    wave: waveOf({ environment, criticalityLevel }, fleet),
    state,
    targetVersion: `${COMMIT_B}#${id}`,
    ...(state === 'failed' ? { failure: { error: 'ConfigError', at: 5 } } : {}),
  };
}

describe('waveOf', () => {
  it('orders by the configured environments, then unlisted ones by name, then criticality', () => {
    const waves = [
      waveOf({ environment: 'production', criticalityLevel: 1 }, fleet),
      waveOf({ environment: 'sandbox', criticalityLevel: 1 }, fleet),
      waveOf({ environment: 'test', criticalityLevel: 2 }, fleet),
      waveOf({ environment: 'demo', criticalityLevel: 1 }, fleet),
      waveOf({ environment: 'test', criticalityLevel: 1 }, fleet),
      waveOf({ environment: 'staging', criticalityLevel: 3 }, fleet),
    ];
    expect(waves.sort(compareWaves).map((w) => w.label)).toEqual([
      'test (criticality 1)',
      'test (criticality 2)',
      'staging (criticality 3)',
      'production (criticality 1)',
      'demo (criticality 1)',
      'sandbox (criticality 1)',
    ]);
  });

  it('makes one wave per environment when criticality does not split them', () => {
    const flat = settings({ wavesByCriticality: false });
    expect(waveOf({ environment: 'test', criticalityLevel: 1 }, flat)).toEqual(
      waveOf({ environment: 'test', criticalityLevel: 3 }, flat),
    );
  });
});

describe('gateRollout', () => {
  const staging = waveOf({ environment: 'staging', criticalityLevel: 1 }, fleet);
  const production = waveOf({ environment: 'production', criticalityLevel: 1 }, fleet);
  const test = waveOf({ environment: 'test', criticalityLevel: 1 }, fleet);

  it('opens the first unfinished wave and makes the later ones wait for it', () => {
    const gate = gateRollout(
      COMMIT_B,
      [member('t1', 'test', 'done'), member('t2', 'test', 'running'), member('s1', 'staging', 'pending')],
      undefined,
    );
    expect(gate.closed(test)).toBeUndefined();
    expect(gate.closed(staging)).toEqual({
      halted: false,
      message: 'waiting for wave test (criticality 1) at bbbbbbbbbbbb: 1 of 2 clusters done',
    });
    expect(gate.halt).toBeUndefined();
    expect(gate.view.waves.map((w) => [w.wave, w.status])).toEqual([
      ['test (criticality 1)', 'in-progress'],
      ['staging (criticality 1)', 'waiting'],
    ]);
  });

  it('opens the next wave once every cluster of the previous one is done', () => {
    const gate = gateRollout(
      COMMIT_B,
      [member('t1', 'test', 'done'), member('s1', 'staging', 'pending'), member('p1', 'production', 'pending')],
      undefined,
    );
    expect(gate.closed(staging)).toBeUndefined();
    expect(gate.closed(production)?.halted).toBe(false);
  });

  it('halts the failed wave and every later one, naming the failed clusters', () => {
    const gate = gateRollout(
      COMMIT_B,
      [
        member('t1', 'test', 'done'),
        member('t2', 'test', 'failed'),
        member('t3', 'test', 'pending'),
        member('s1', 'staging', 'pending'),
        member('p1', 'production', 'pending'),
      ],
      undefined,
    );
    expect(gate.closed(test)).toMatchObject({ halted: true });
    expect(gate.closed(production)).toMatchObject({ halted: true });
    expect(gate.halt).toEqual({
      configVersion: COMMIT_B,
      wave: 'test (criticality 1)',
      heldWaves: ['staging (criticality 1)', 'production (criticality 1)'],
      failed: [{ clusterId: 't2', targetVersion: `${COMMIT_B}#t2`, error: 'ConfigError' }],
      failedCount: 1,
      since: 5,
      reason: 't2 failed updating to bbbbbbbbbbbb: ConfigError',
    });
    expect(gate.view.waves.map((w) => w.status)).toEqual(['halted', 'held', 'held']);
  });

  it('lets the waves proceed past failed clusters under an operator override', () => {
    const override = { configVersion: COMMIT_B, reason: 'known broken test cluster', by: 'jdoe', at: 9 };
    const gate = gateRollout(
      COMMIT_B,
      [member('t1', 'test', 'done'), member('t2', 'test', 'failed'), member('s1', 'staging', 'pending')],
      override,
    );
    expect(gate.halt).toBeUndefined();
    expect(gate.closed(staging)).toBeUndefined();
    expect(gate.view).toMatchObject({ halted: false, overridden: override });
  });
});

describe('gateRollout with a wave soak', () => {
  const staging = waveOf({ environment: 'staging', criticalityLevel: 1 }, fleet);
  const production = waveOf({ environment: 'production', criticalityLevel: 1 }, fleet);
  const HOUR = 3_600_000;
  const done = (id: string, environment: string, doneAt?: number): RolloutMember => ({
    ...member(id, environment, 'done'),
    ...(doneAt !== undefined ? { doneAt } : {}),
  });
  const members = [done('t1', 'test', 1_000), done('t2', 'test', 2 * HOUR), member('s1', 'staging', 'pending')];

  it('holds the next wave until the soak after the last member of the finished wave ends', () => {
    const gate = gateRollout(COMMIT_B, members, undefined, { soak: { ms: HOUR, now: 2.5 * HOUR } });
    expect(gate.closed(staging)).toEqual({
      halted: false,
      message: `wave test (criticality 1) at ${COMMIT_B.slice(0, 12)} soaks until ${new Date(3 * HOUR).toISOString()}`,
    });
    expect(gate.closed(production)).toBeDefined();
    expect(gate.view.waves.map((w) => w.status)).toEqual(['done', 'waiting']);
  });

  it('opens it once the soak is over, and at once for members that were at the version already', () => {
    expect(
      gateRollout(COMMIT_B, members, undefined, { soak: { ms: HOUR, now: 3 * HOUR } }).closed(staging),
    ).toBeUndefined();
    const atVersion = [done('t1', 'test'), member('s1', 'staging', 'pending')];
    expect(gateRollout(COMMIT_B, atVersion, undefined, { soak: { ms: HOUR, now: 0 } }).closed(staging)).toBeUndefined();
    expect(
      gateRollout(COMMIT_B, members, undefined, { soak: { ms: 0, now: 2.5 * HOUR } }).closed(staging),
    ).toBeUndefined();
  });
});

describe('gateRollout with a failure tolerance', () => {
  const staging = waveOf({ environment: 'staging', criticalityLevel: 1 }, fleet);
  const testWave = (failed: number, pending = 0) => [
    ...Array.from({ length: 200 - failed - pending }, (_, i) => member(`t${i}`, 'test', 'done')),
    ...Array.from({ length: failed }, (_, i) => member(`f${i}`, 'test', 'failed')),
    ...Array.from({ length: pending }, (_, i) => member(`p${i}`, 'test', 'pending')),
    member('s1', 'staging', 'pending'),
  ];

  it('lets a wave go on while its failures stay within the share, and the next wave start when the rest is done', () => {
    const within = gateRollout(COMMIT_B, testWave(1, 5), undefined, { failureTolerance: 0.005 });
    expect(within.halt).toBeUndefined();
    expect(within.closed(staging)?.message).toBe(
      `waiting for wave test (criticality 1) at ${COMMIT_B.slice(0, 12)}: 194 of 200 clusters done (1 failed, within the tolerance)`,
    );
    expect(gateRollout(COMMIT_B, testWave(1), undefined, { failureTolerance: 0.005 }).closed(staging)).toBeUndefined();
  });

  it('halts it once they are more, and at the first failure by default', () => {
    expect(gateRollout(COMMIT_B, testWave(2), undefined, { failureTolerance: 0.005 }).halt?.failedCount).toBe(2);
    expect(gateRollout(COMMIT_B, testWave(1), undefined).halt?.failedCount).toBe(1);
  });
});
