// The events of runs in the simulator, started by a local `clm provision` (written to <state>/events.jsonl as
// EventBridge would deliver them) and by the dispatcher (`clm dispatch`: its executions run in process). One script
// gives every event type: kube-test created; its update held for approval, approved, rolled while a PDB blocks a drain
// (examples/scenarios/pdb-blocks.yaml); then a broken config fails. Every event conforms to its published schema.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENTS_FILE } from '../../../lambdas/adapters/events/file-event-sink';
import { UPDATE_EVENT_TYPES } from '../../../lambdas/contracts/update-events';
import type { FleetEvent } from '../../../lambdas/contracts/fleet-events';
import { ROOT, TEST, clm, configWithNewImage, loadProgress, tempDir } from '../support/clm-session';
import { onTheWire, schemaErrors } from '../../support/event-schemas';
import { runClm } from '../support/clm-process';

const SLOW = 300_000;
/**
 * examples/scenarios/pdb-blocks.yaml with the payments PDB refusing evictions for 90 virtual minutes: kube-test is
 * created in 40, so the roll after the approval finds its drains blocked for longer than DRAIN_BLOCKED_NOTICE_MS.
 */
function scenario(dir: string): string[] {
  const file = join(dir, 'pdb-blocks-long.yaml');
  const text = readFileSync(join(ROOT, 'examples/scenarios/pdb-blocks.yaml'), 'utf8');
  if (!text.includes('blockEvictionsUntilSeconds: 1500')) throw new Error('pdb-blocks.yaml changed: adapt this test');
  writeFileSync(file, text.replace('blockEvictionsUntilSeconds: 1500', 'blockEvictionsUntilSeconds: 5400'));
  return ['--scenario', file];
}
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

type Wire = {
  readonly source: string;
  readonly 'detail-type': string;
  readonly detail: Record<string, unknown>;
};

/** The places and commands of one script: a registry the test edits, the config versions, the state directory. */
function setUp(prefix: string) {
  const state = tempDir(prefix);
  temps.push(state);
  const registry = join(state, 'clusters.yaml');
  const plain = readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8');
  writeFileSync(registry, plain);
  const withApproval = plain.replace(
    '      team: platform\n      cost_center: "1001"\n',
    '      team: platform\n      cost_center: "1001"\n      update_requires_approval: "true"\n',
  );
  const newImage = configWithNewImage();
  const broken = tempDir('broken');
  cpSync(newImage, broken, { recursive: true });
  writeFileSync(join(broken, 'cluster/manifests/20-web/broken.yaml'), 'kind: ConfigMap\nmetadata: {name: {{oops\n');
  temps.push(newImage, broken);
  const approve = async () => {
    const digest = loadProgress(state).controls[TEST]!.approval!.planDigest;
    expect((await clm(['approve', TEST, '--state', state, '--plan', digest])).code).toBe(0);
  };
  return { state, registry, plain, withApproval, newImage, broken, approve };
}

const EVERY_TYPE_IN_ORDER = [
  'UpdateStarted',
  'UpdateSucceeded',
  'UpdateStarted',
  'ApprovalRequested',
  'Held',
  'UpdateStarted',
  'PoolRollStarted',
  'DrainBlocked',
  'PoolRolled',
  'UpdateSucceeded',
  'UpdateStarted',
  'UpdateFailed',
];

/** The types in order, a run of DrainBlocked as one (each refused pod of the roll is a block of its own). */
const story = (types: readonly string[]) =>
  types.filter((type, i) => !(type === 'DrainBlocked' && types[i - 1] === 'DrainBlocked'));

describe('events of runs started by a local clm provision', () => {
  let lines: Wire[];
  beforeAll(async () => {
    const s = setUp('events-cli');
    // Each run its own process, as on a laptop: the process is the execution (its lease holder).
    const provision = (config: string) =>
      runClm(
        [...['provision', '--simulate', ...scenario(s.state), '--registry', s.registry, '--directory', config]].concat([
          '--state',
          s.state,
          '--cluster',
          TEST,
        ]),
      );
    expect((await provision('examples/config')).code).toBe(0);
    writeFileSync(s.registry, s.withApproval);
    expect((await provision(s.newImage)).code).toBe(3);
    await s.approve();
    expect((await provision(s.newImage)).code).toBe(0);
    const failed = await provision(s.broken);
    expect(failed.code).not.toBe(0);
    lines = readFileSync(join(s.state, EVENTS_FILE), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Wire);
  }, SLOW);

  it.each(UPDATE_EVENT_TYPES)('writes %s to <state>/events.jsonl, conforming to its published schema', (type) => {
    const sent = lines.filter((line) => line['detail-type'] === type);
    expect(sent.length).toBeGreaterThan(0);
    for (const line of sent) expect(schemaErrors(line)).toEqual([]);
  });

  it('tells the story once: held for approval, resumed once approved, blocked, rolled, then failed', () => {
    expect(story(lines.map((l) => l['detail-type']))).toEqual(EVERY_TYPE_IN_ORDER);
    const ids = lines.map((l) => l.detail.id);
    expect(new Set(ids).size).toBe(ids.length);
    const started = lines.filter((l) => l['detail-type'] === 'UpdateStarted').map((l) => l.detail);
    expect(started.map((d) => [d.trigger, d.resumed])).toEqual([
      ['cli', false],
      ['cli', false],
      ['cli', true],
      ['cli', false],
    ]);
    const blocked = lines.find((l) => l['detail-type'] === 'DrainBlocked')!.detail;
    expect(blocked).toMatchObject({ pool: 'default-worker', pdb: expect.stringMatching(/\/payments$/) });
  });
});

describe('events of runs started by the dispatcher (clm dispatch)', () => {
  let events: FleetEvent[];
  beforeAll(async () => {
    const s = setUp('events-dispatch');
    events = [];
    const dispatch = async (config: string) => {
      const run = await clm(
        [
          'dispatch',
          '--output',
          'json',
          '--simulate',
          ...scenario(s.state),
          '--registry',
          s.registry,
          '--directory',
          config,
        ].concat(['--state', s.state, '--cluster', TEST]),
      );
      events.push(...(JSON.parse(run.out) as { events: FleetEvent[] }).events);
      return run;
    };
    await dispatch('examples/config');
    writeFileSync(s.registry, s.withApproval);
    await dispatch(s.newImage);
    await s.approve();
    await dispatch(s.newImage);
    await dispatch(s.broken);
  }, SLOW);

  it.each(UPDATE_EVENT_TYPES)('sends %s, conforming to its published schema', (type) => {
    const sent = events.filter((e) => e.type === type);
    expect(sent.length).toBeGreaterThan(0);
    for (const event of sent) expect(schemaErrors(onTheWire(event))).toEqual([]);
  });

  it("sends the dispatcher's own events beside the execution's, all conforming", () => {
    const types = events.map((e) => e.type);
    expect(story(types.filter((t) => (UPDATE_EVENT_TYPES as readonly string[]).includes(t)))).toEqual(
      EVERY_TYPE_IN_ORDER,
    );
    expect(types).toContain('ClusterUpdateStarted');
    for (const event of events) expect(schemaErrors(onTheWire(event))).toEqual([]);
  });
});
