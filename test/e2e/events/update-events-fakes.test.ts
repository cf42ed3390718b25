// The events a cluster-update execution sends itself, whoever started it: the deployed ASL run in process over the
// stateful fakes, started as the console starts it (StartExecution with a hand-written input, an execution ARN) and
// as `clm provision --remote` starts it (runRemote's name and input). One script of runs gives every event type: an
// approval held, the update going on with a drain a PDB blocks for longer than DRAIN_BLOCKED_NOTICE_MS, a pool rolled,
// success, then a failing config. Every event must conform to its published schema (docs/events/), and none is sent
// twice in a run however often its step ran.
import type { ClusterUpdateInput } from '../../../lambdas/contracts/cluster-update';
import { UPDATE_EVENT_TYPES, type UpdateEvent } from '../../../lambdas/contracts/update-events';
import type { FleetEvent } from '../../../lambdas/contracts/fleet-events';
import { runRemote } from '../../../lambdas/cli/remote/remote-provision';
import { runClusterUpdate } from '../../../lambdas/runtime/local/run-cluster-update';
import type { UpdateExecutions } from '../../../lambdas/ports/update-executions';
import { harness, type Harness } from '../support/fakes-harness';
import { onTheWire, schemaErrors } from '../../support/event-schemas';

const MACHINE = 'arn:aws:states:eu-central-1:123456789012:execution:ClusterUpdate';

type Start = (h: Harness, attempt: number) => Promise<void>;

/** A StartExecution from the console: the input as a person types it, the execution's ARN as its id. */
const fromConsole: Start = async (h, attempt) => {
  const input: ClusterUpdateInput = {
    clusterId: h.cluster.id,
    action: 'provision',
    options: { applyOnly: false },
    trigger: 'console',
  };
  await runClusterUpdate(input, {
    ports: h.ports,
    executionId: `${MACHINE}:console-${attempt}`,
    advanceClock: (seconds) => h.env.clock.advance(seconds * 1000),
  });
};

/** `clm provision --remote`: runRemote names the execution and builds its input; the execution runs the ASL. */
const fromRemote: Start = async (h) => {
  const executions: Pick<UpdateExecutions, 'start'> = {
    start: async ({ name, input }) => {
      const arn = `${MACHINE}:${name}`;
      await runClusterUpdate(input as ClusterUpdateInput, {
        ports: h.ports,
        executionId: arn,
        advanceClock: (seconds) => h.env.clock.advance(seconds * 1000),
      });
      return { how: 'started', name, arn };
    },
  };
  const services = { executions: executions as UpdateExecutions, history: unused(), executionArn: (n: string) => n };
  const [cluster] = await h.env.registry.listClusters();
  await runRemote([cluster!], [h.env.source], services, {
    verb: 'provision',
    applyOnly: false,
    follow: false,
    print: () => undefined,
    sleep: async () => undefined,
    pollMs: 1,
  });
};

function unused(): never {
  return new Proxy({}, { get: () => () => Promise.reject(new Error('not followed')) }) as never;
}

const updateEvents = (events: readonly FleetEvent[]) =>
  events.filter((e): e is UpdateEvent => (UPDATE_EVENT_TYPES as readonly string[]).includes(e.type));

/** The script: approval held; approved (the item removed) and rolled through a long PDB block; a broken config. */
async function script(h: Harness, start: Start): Promise<UpdateEvent[][]> {
  const setItems = (items: Record<string, string>) => {
    h.env.registry.clusters = h.env.registry.clusters.map((c) => ({
      ...c,
      configItems: { ...c.configItems, ...items },
    }));
  };
  h.env.pools.bumpTemplate('workers');
  // A second workload whose PDB allows no disruption: its pods leave only by the forced eviction (drain_grace_period).
  const nodes = h.env.pools.pools.get('workers')!.instances.map((i) => h.env.pools.nodeName(i.id));
  h.env.kube.addWorkload({ kind: 'Deployment', namespace: 'default', name: 'db', replicas: 3, labels: { app: 'db' } }, [
    nodes[0]!,
    nodes[1]!,
    nodes[2]!,
  ]);
  h.env.kube.addPdb('default', 'db', { app: 'db' }, 3);
  const runs: UpdateEvent[][] = [];
  const take = async (attempt: number) => {
    const before = h.env.events.events.length;
    await start(h, attempt);
    runs.push(updateEvents(h.env.events.events.slice(before)));
  };
  setItems({ update_requires_approval: 'true' });
  await take(1);
  setItems({ update_requires_approval: 'false' });
  await take(2);
  h.env.source.files['cluster/cluster.yaml'] = 'Resources:\n  Topic: {Type: AWS::SNS::Topic, Properties: {{broken\n';
  h.env.source.version = 'badc0de';
  await take(3);
  return runs;
}

describe.each([
  ['a console-style StartExecution', fromConsole],
  ['clm provision --remote', fromRemote],
])('events of a run started by %s', (_path, start) => {
  let runs: UpdateEvent[][];
  beforeAll(async () => {
    runs = await script(harness(), start);
  }, 240_000);

  it.each(UPDATE_EVENT_TYPES)('sends %s, conforming to its published schema', (type) => {
    const sent = runs.flat().filter((e) => e.type === type);
    expect(sent.length).toBeGreaterThan(0);
    for (const event of sent) expect(schemaErrors(onTheWire(event))).toEqual([]);
  });

  it('says what each run did, in order, each event once', () => {
    const [held, rolled, failed] = runs.map((r) => r.map((e) => e.type));
    expect(held).toEqual(['UpdateStarted', 'ApprovalRequested', 'Held']);
    // Each of the three nodes' drains is held by the db PDB until its forced eviction: three blocks, one event each.
    expect(rolled).toEqual([
      'UpdateStarted',
      'PoolRollStarted',
      ...['DrainBlocked', 'DrainBlocked', 'DrainBlocked'],
      'PoolRolled',
      'UpdateSucceeded',
    ]);
    expect(failed).toEqual(['UpdateStarted', 'UpdateFailed']);
    const ids = runs.flat().map((e) => e.detail.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('carries what a subscriber needs: how to approve, the execution, the PDB and pod, since when, the roll estimate', () => {
    const [first, second] = runs;
    const approval = first!.find((e) => e.type === 'ApprovalRequested')!.detail as Record<string, unknown>;
    expect(approval.approve).toMatch(/^clm approve aws:\S+ --plan [0-9a-f]+$/);
    expect(first!.find((e) => e.type === 'Held')!.detail).toMatchObject({ reason: 'awaiting-approval' });
    // The approval item is part of the target version: the approved config is a new run, not a resumed one.
    expect(second![0]!.detail).toMatchObject({
      resumed: false,
      executionArn: expect.stringMatching(/^arn:aws:states:/),
    });
    const blocks = second!.filter((e) => e.type === 'DrainBlocked').map((e) => e.detail as Record<string, unknown>);
    for (const blocked of blocks) {
      expect(blocked).toMatchObject({
        pool: 'workers',
        pdb: 'default/db',
        pod: expect.stringMatching(/^default\/db-/),
      });
      expect(Date.parse(blocked.at as string) - Date.parse(blocked.since as string)).toBeGreaterThanOrEqual(300_000);
    }
    // Once a node was replaced the roll has a pace: the later blocks say when it should end.
    expect(blocks.at(-1)!.estimatedEnd).toEqual(expect.any(String));
    expect(second!.find((e) => e.type === 'PoolRolled')!.detail).toMatchObject({ replaced: 3, total: 3 });
  });
});
