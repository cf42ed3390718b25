import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClusterFleetState } from '../../../lambdas/core/dispatch/fleet-state';
import { planDispatch } from '../../../lambdas/core/dispatch/plan-dispatch';
import type { DispatchInput } from '../../../lambdas/core/dispatch/plan-dispatch';
import { recordStart, withNextAttempt } from '../../../lambdas/core/dispatch/record-start';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { COMMIT_A, fleetCluster, record, settings, state, targets, targetVersionOf } from './fleet-fixtures';

const NOW = 50_000_000;

function input(clusters: Cluster[], extra: Partial<DispatchInput> = {}): DispatchInput {
  return {
    clusters,
    targets: targets(clusters),
    fleet: { clusters: new Map(), halts: [], overrides: [] },
    outcomes: new Map(),
    running: 0,
    settings: settings(),
    now: NOW,
    trigger: 'schedule',
    ...extra,
  };
}

function fleetOf(states: ClusterFleetState[]): DispatchInput['fleet'] {
  return { clusters: new Map(states.map((s) => [s.clusterId, s])), halts: [], overrides: [] };
}

describe('planDispatch', () => {
  const tests = ['t1', 't2', 't3'].map((n) => fleetCluster(n, 'test', { current: COMMIT_A }));
  const stagings = ['s1', 's2'].map((n) => fleetCluster(n, 'staging', { current: COMMIT_A }));

  it('starts the first wave only, named and shaped as the state machine input', () => {
    const plan = planDispatch(input([...stagings, ...tests]));
    expect(plan.starts.map((s) => s.clusterId)).toEqual(tests.map((c) => c.id));
    expect(plan.starts[0]).toMatchObject({
      action: 'update',
      attempt: 1,
      priority: 1,
      wave: 'test (criticality 1)',
      executionName: expect.stringMatching(/^update-t1-bbbbbbbb-[0-9a-f]{20}$/),
      input: { clusterId: tests[0].id, action: 'provision', trigger: 'schedule' },
    });
    expect(plan.skipped.map((s) => [s.clusterId, s.reason])).toEqual(stagings.map((c) => [c.id, 'wave-waiting']));
    expect(plan.summary).toEqual({ clusters: 5, upToDate: 0, running: 0, capacity: 10, starts: 3, skipped: 2 });
  });

  it('gives the state machine every input field its states read and none writes (Step Functions fails a missing path)', () => {
    // Arrange: the fields the cluster-update ASL's own states (not a Map's item states) read from the state
    // (`"x.$": "$.field…"` in Parameters and ItemSelector), minus those a state writes (ResultPath)
    const asl = JSON.parse(readFileSync(join(__dirname, '../../../statemachines/cluster-update.asl.json'), 'utf8')) as {
      States: Record<string, { Parameters?: unknown; ItemSelector?: unknown; ResultPath?: string | null }>;
    };
    const states = Object.values(asl.States);
    const paths = (value: unknown): string[] =>
      typeof value === 'string'
        ? [...value.matchAll(/^\$\.(\w+)/g)].map((m) => m[1])
        : value && typeof value === 'object'
          ? Object.values(value).flatMap(paths)
          : [];
    const read = new Set(states.flatMap((state) => [...paths(state.Parameters), ...paths(state.ItemSelector)]));
    const written = new Set(states.flatMap((state) => paths(state.ResultPath)));
    const fromInput = [...read].filter((field) => !written.has(field)).sort();

    // Act
    const [start] = planDispatch(input(tests)).starts;

    // Assert
    expect(fromInput).toEqual(expect.arrayContaining(['clusterId', 'options']));
    expect(Object.keys(start.input).sort()).toEqual(expect.arrayContaining(fromInput));
    expect(start.input.options).toEqual({ applyOnly: false });
  });

  it('costs nothing for a fleet at its target', () => {
    const current = [...tests, ...stagings].map((c) => ({
      ...c,
      status: { ...c.status, currentVersion: targetVersionOf(c) },
    }));
    const plan = planDispatch(input(current));
    expect(plan).toMatchObject({ starts: [], skipped: [], events: [], states: [], problems: [] });
    expect(plan.summary.upToDate).toBe(5);
  });

  it('starts no more than the cap allows, counting executions running elsewhere', () => {
    const plan = planDispatch(input(tests, { running: 8 }));
    expect(plan.starts).toHaveLength(2);
    expect(plan.skipped).toEqual([
      expect.objectContaining({
        clusterId: tests[2].id,
        reason: 'capacity',
        message: expect.stringMatching(/^8 updates running/),
      }),
    ]);
    expect(planDispatch(input(tests, { running: 12 })).starts).toHaveLength(0);
  });

  it('starts interrupted updates first, then decommissions, then the rest', () => {
    const interrupted = { ...tests[2], status: { ...tests[2].status, nextVersion: targetVersionOf(tests[2]) } };
    const leaving = fleetCluster('p9', 'production', { current: COMMIT_A, lifecycleStatus: 'decommission-requested' });
    const plan = planDispatch(input([tests[0], leaving, interrupted], { running: 8 }));
    expect(plan.starts.map((s) => [s.clusterId, s.priority, s.action])).toEqual([
      [interrupted.id, 3, 'update'],
      [leaving.id, 2, 'decommission'],
    ]);
  });

  it('starts only clusters in scope but judges waves on the whole fleet', () => {
    const plan = planDispatch(input([...tests, ...stagings], { scope: new Set([tests[1].id, stagings[0].id]) }));
    expect(plan.starts.map((s) => s.clusterId)).toEqual([tests[1].id]);
    expect(plan.skipped.map((s) => [s.clusterId, s.reason])).toEqual([[stagings[0].id, 'wave-waiting']]);
  });

  it('learns how running executions ended: success and failure are announced, a failure is recorded as a problem', () => {
    const done = { ...tests[0], status: { ...tests[0].status, currentVersion: targetVersionOf(tests[0]) } };
    const records = [
      state(done.id, record({ name: 'u-t1', targetVersion: targetVersionOf(done), arn: 'arn:t1' })),
      state(tests[1].id, record({ name: 'u-t2', targetVersion: targetVersionOf(tests[1]) })),
    ];
    const outcomes = new Map([
      ['u-t1', { name: 'u-t1', status: 'SUCCEEDED' as const, stoppedAt: NOW - 10 }],
      ['u-t2', { name: 'u-t2', status: 'FAILED' as const, stoppedAt: NOW - 5, error: 'ConfigError', cause: 'bad' }],
    ]);
    const plan = planDispatch(input([done, tests[1], tests[2]], { fleet: fleetOf(records), outcomes }));
    expect(plan.events.map((e) => e.type)).toEqual([
      'ClusterUpdateSucceeded',
      'ClusterUpdateFailed',
      'WaveHalted',
      'ClusterUpdateBlocked',
    ]);
    expect(plan.events[1].detail).toMatchObject({
      clusterId: tests[1].id,
      error: 'ConfigError',
      retryable: false,
      failures: 1,
      nextAttemptAt: NOW - 5 + 15 * 60_000,
    });
    expect(plan.problems).toEqual([
      {
        clusterId: tests[1].id,
        problem: expect.objectContaining({
          title: expect.stringMatching(
            /^update to b{40}#\S+ ended with ConfigError \(execution u-t2, failure 1\); next attempt after /,
          ),
          detail: 'bad',
        }),
      },
    ]);
    expect(plan.halts).toHaveLength(1);
    expect(plan.starts).toEqual([]);
    expect(plan.skipped.map((s) => [s.clusterId, s.reason])).toEqual([
      [tests[1].id, 'backoff'],
      [tests[2].id, 'wave-halted'],
    ]);
    expect(plan.states.find((s) => s.clusterId === done.id)?.execution).toMatchObject({
      state: 'succeeded',
      failures: 0,
    });
  });

  it('announces a halt and a block once, not every pass', () => {
    const failed = state(
      tests[0].id,
      record({
        name: 'u-t1',
        targetVersion: targetVersionOf(tests[0]),
        state: 'failed',
        endedAt: NOW,
        failures: 1,
        lastFailure: { error: 'ConfigError', retryable: false, at: NOW },
      }),
    );
    const first = planDispatch(input([...tests, ...stagings], { fleet: fleetOf([failed]) }));
    expect(first.events.filter((e) => e.type === 'WaveHalted')).toHaveLength(1);
    // The failed cluster's back-off is announced; the clusters the halt holds are named by WaveHalted.
    expect(first.events.filter((e) => e.type === 'ClusterUpdateBlocked')).toHaveLength(1);
    const written = new Map(first.states.map((s) => [s.clusterId, { ...s, revision: s.revision + 1 }]));
    const second = planDispatch(
      input([...tests, ...stagings], {
        fleet: { clusters: written, halts: first.halts, overrides: [] },
        now: NOW + 60_000,
      }),
    );
    expect(second.events).toEqual([]);
    expect(second.states).toEqual([]);
  });

  it('retries the failed cluster inside its halted wave after back-off, and nothing else', () => {
    const failed = state(
      tests[0].id,
      record({
        name: 'u-t1',
        targetVersion: targetVersionOf(tests[0]),
        state: 'failed',
        endedAt: NOW,
        failures: 1,
        lastFailure: { error: 'ConfigError', retryable: false, at: NOW },
      }),
    );
    const plan = planDispatch(input([...tests, ...stagings], { fleet: fleetOf([failed]), now: NOW + 16 * 60_000 }));
    expect(plan.starts.map((s) => [s.clusterId, s.attempt])).toEqual([[tests[0].id, 2]]);
    expect(plan.starts[0].executionName).toMatch(/-r2$/);
  });

  it('does not hold decommissions behind waves', () => {
    const leaving = fleetCluster('p1', 'production', { current: COMMIT_A, lifecycleStatus: 'decommission-requested' });
    const plan = planDispatch(input([...tests, leaving]));
    expect(plan.starts.map((s) => s.clusterId)).toContain(leaving.id);
  });
});

describe('recordStart and withNextAttempt', () => {
  const c = fleetCluster('t1', 'test', { current: COMMIT_A });
  const [start] = planDispatch(input([c])).starts;

  it('records the running execution and announces it', () => {
    const { state: next, event } = recordStart(
      start,
      { how: 'started', name: start.executionName, arn: 'arn:x' },
      undefined,
      NOW,
    );
    expect(next).toEqual({
      clusterId: c.id,
      revision: 0,
      execution: {
        action: 'update',
        targetVersion: start.targetVersion,
        previousVersion: c.status.currentVersion,
        name: start.executionName,
        arn: 'arn:x',
        attempt: 1,
        startedAt: NOW,
        state: 'running',
        failures: 0,
      },
    });
    expect(event).toEqual({
      type: 'ClusterUpdateStarted',
      detail: expect.objectContaining({
        clusterId: c.id,
        executionArn: 'arn:x',
        wave: 'test (criticality 1)',
        trigger: 'schedule',
        resumed: false,
      }),
    });
  });

  it('keeps failures at the same target and forgets the announced block', () => {
    const before = state(
      c.id,
      record({
        targetVersion: start.targetVersion,
        failures: 2,
        state: 'failed',
        lastFailure: { error: 'X', retryable: false, at: 1 },
      }),
      { blocked: 'backoff@x' },
    );
    const { state: next } = recordStart(start, { how: 'redriven', name: 'old', arn: 'arn:old' }, before, NOW);
    expect(next.blocked).toBeUndefined();
    expect(next.execution).toMatchObject({ failures: 2, lastFailure: { error: 'X' }, name: 'old', state: 'running' });
  });

  it('renames a start whose name is taken to the next attempt', () => {
    const renamed = withNextAttempt(start);
    expect(renamed.attempt).toBe(2);
    expect(renamed.executionName).toBe(`${start.executionName}-r2`);
  });
});
