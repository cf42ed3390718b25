// The functions that are not states of a state machine, at unit level over the fleet's fakes: what each does for
// its triggers, and that each touches exactly the ports it declares (its IAM comes from the same declaration).
import { createHmac } from 'node:crypto';
import { ForgeWebhookVerifier } from '../../lambdas/adapters/webhook/forge-webhook-verifier';
import { toWireCluster } from '../../lambdas/core/model/cluster-wire';
import type { Cluster } from '../../lambdas/core/model/cluster';
import { factoriesOf, restrictPorts } from '../../lambdas/runtime/restrict-ports';
import { runTask } from '../../lambdas/runtime/run-task';
import { TASK_CATALOGUE } from '../../lambdas/tasks/catalogue';
import { isStateMachineTask, type AnyTask } from '../../lambdas/tasks/define-task';
import { FleetWorld } from '../support/fleet/fleet-world';
import { recordingPorts, touchedAndDeclared, type TouchedPorts } from '../support/recording-ports';
import { COMMIT_A, COMMIT_B, fleetCluster, settings } from '../core/dispatch/fleet-fixtures';
import { headers, pushPayload } from '../core/webhook/payloads';
import { clusterHash } from '../../lambdas/core/version/cluster-hash';
import { GithubForge } from '../../lambdas/adapters/forge/github-forge';
import { FakeGithub } from '../support/forge/fake-github';
import { MemoryArtifactStore } from '../support/fakes/memory-artifact-store';

const SECRET = 'whsec-triggered-tasks';
const TRIGGERED = TASK_CATALOGUE.filter((t) => !isStateMachineTask(t));
const touched: TouchedPorts = new Map();
const byName = (name: string) => TRIGGERED.find((t) => t.name === name)!;

/** Run a catalogue task as a runtime does: its input contract, only its ports (recorded), its output contract. */
function run(world: FleetWorld, task: AnyTask, payload: unknown): Promise<any> {
  const ports = restrictPorts(task.name, task.ports, factoriesOf(recordingPorts(task.name, world.ports, touched)));
  return runTask(task, payload, ports);
}

/** test-1 and test-2 follow main, stable-1 follows stable: all at commit A. */
function world(): FleetWorld {
  const w = new FleetWorld(
    [
      fleetCluster('test-1', 'test', { current: COMMIT_A }),
      fleetCluster('test-2', 'test', { current: COMMIT_A }),
      fleetCluster('stable-1', 'test', { current: COMMIT_A, channel: 'stable' }),
    ],
    settings(),
    new ForgeWebhookVerifier({ github: [SECRET], gitlab: [], bitbucket: [] }),
  );
  w.refs.set('main', COMMIT_A);
  w.refs.set('stable', COMMIT_A);
  return w;
}

function signedPush(delivery: string, after: string) {
  const repository = { ...(pushPayload().repository as object), full_name: 'acme/cluster-config' };
  const body = JSON.stringify(pushPayload({ ref: 'refs/heads/main', before: COMMIT_A, after, repository }));
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  return { method: 'POST', path: '/webhooks/github', headers: headers('push', delivery, signature), body };
}

const startedIds = (w: FleetWorld) => w.executions.started.map((e) => e.clusterId.split(':').at(-1)).sort();

describe('triggered tasks', () => {
  it('GithubWebhook: answers a signed push with what it matched, records it once and asks for a pass', async () => {
    // Arrange
    const w = world();
    w.refs.set('main', COMMIT_B);
    const webhook = byName('GithubWebhook');

    // Act
    const answer = await run(w, webhook, signedPush('d-1', COMMIT_B));
    const replay = await run(w, webhook, signedPush('d-1', COMMIT_B));
    const unsigned = await run(w, webhook, { ...signedPush('d-2', COMMIT_B), headers: headers('push', 'd-2') });

    // Assert
    expect(answer).toMatchObject({ status: 202, body: { affected: 2, sources: ['main'], dispatch: 'requested' } });
    expect([replay.status, unsigned.status]).toEqual([401, 401]);
    expect(w.events.ofType('PushAccepted').map((e) => [e.detail.ref, e.detail.affected])).toEqual([
      ['refs/heads/main', 2],
    ]);
    expect(Object.keys(w.store.data.deliveries)).toEqual(['d-1']);
    expect(w.store.data.deliveries['d-1']!.completedAt).toBeDefined();
    expect(await w.store.getCommit('main', 'refs/heads/main')).toMatchObject({ commit: COMMIT_B });
    expect(w.executions.started).toEqual([]); // the pass runs in DispatchFleet, not here
  });

  it('DispatchFleet: a push starts the clusters following its ref, an execution ending the whole fleet', async () => {
    // Arrange: main and stable both moved; the push names main
    const w = world();
    w.refs.set('main', COMMIT_B);
    w.refs.set('stable', COMMIT_B);
    const dispatch = byName('DispatchFleet');
    const push = { repository: 'acme/cluster-config', ref: 'refs/heads/main', commit: COMMIT_B };

    // Act
    const pushed = await run(w, dispatch, { trigger: 'webhook', push });
    const afterPush = startedIds(w);
    const ended = await run(w, dispatch, {
      trigger: 'execution',
      execution: { name: w.executions.started[0]!.name, status: 'RUNNING' },
    });

    // Assert
    expect(afterPush).toEqual(['test-1', 'test-2']);
    expect(pushed.starts.map((s: { how: string }) => s.how)).toEqual(['started', 'started']);
    expect(pushed.summary).toMatchObject({ clusters: 3, behindTarget: 3, starts: 2 });
    expect(ended.starts.map((s: { clusterId: string }) => s.clusterId)).toEqual([w.clusters[2]!.id]);
    expect(startedIds(w)).toEqual(['stable-1', 'test-1', 'test-2']);
  });

  it('DispatchFleet: the registry poll starts exactly the clusters whose hash changed', async () => {
    // Arrange: a first poll sees every cluster (nothing to do at A), then two change, and main moves too
    const w = world();
    const dispatch = byName('DispatchFleet');
    const first = await run(w, dispatch, { trigger: 'schedule', changesOnly: true });
    w.replace(w.clusters[0]!.id, { configItems: { new_item: 'x' } });
    w.replace(w.clusters[2]!.id, { criticalityLevel: 2 });
    w.refs.set('main', COMMIT_B); // test-2 needs an update too, but the registry did not change it

    // Act
    const poll = await run(w, dispatch, { trigger: 'schedule', changesOnly: true });

    // Assert
    expect(first.registry).toMatchObject({ added: 3, modified: 0 });
    expect(first.starts).toEqual([]);
    expect(poll.registry).toMatchObject({ added: 0, modified: 2, removed: 0 });
    expect(startedIds(w)).toEqual(['stable-1', 'test-1']);
  });

  it('DispatchFleet: the scheduled pass starts a renewal run only for a cluster with a node due', async () => {
    // Arrange: every cluster at its target; test-1 and test-2 ask for node repair, test-1 has a node lost for 20 min
    const w = world();
    for (const c of w.clusters.slice(0, 2)) w.replace(c.id, { configItems: { node_repair: 'true' } });
    for (const c of w.clusters) {
      const current = `${COMMIT_A}#${clusterHash(w.cluster(c.id))}`;
      w.replace(c.id, { status: { ...c.status, currentVersion: current } });
    }
    const now = w.clock.now();
    const node = (name: string, lostSince?: number) => ({
      name,
      providerId: `aws:///eu-central-1a/i-${name}`,
      labels: { 'node.kubernetes.io/node-pool': 'default-worker' },
      annotations: {},
      taints: [],
      unschedulable: false,
      ready: lostSince === undefined,
      ...(lostSince !== undefined ? { notReadySince: new Date(lostSince).toISOString() } : {}),
      volumesAttached: false,
      createdAt: new Date(now - 86_400_000).toISOString(),
    });
    const [t1, t2] = w.clusters as [Cluster, Cluster];
    w.nodes.set(t1.id, [node('a', now - 20 * 60_000), node('b'), node('c')]);
    w.nodes.set(t2.id, [node('d'), node('e'), node('f')]);

    // Act
    const pass = await run(w, byName('DispatchFleet'), { trigger: 'schedule' });

    // Assert
    expect(pass.starts.map((s: { clusterId: string; how: string }) => [s.clusterId, s.how])).toEqual([
      [t1.id, 'started'],
    ]);
    expect(w.executions.started).toEqual([
      expect.objectContaining({
        clusterId: t1.id,
        input: expect.objectContaining({
          options: { applyOnly: false, nodeRoll: { kind: 'renew', requestedBy: 'schedule pass' } },
        }),
      }),
    ]);
  });

  it('RegistryChanged: a stream batch starts exactly the changed clusters; status writes start nothing', async () => {
    // Arrange
    const w = world();
    w.refs.set('main', COMMIT_B);
    w.refs.set('stable', COMMIT_B);
    const changed = byName('RegistryChanged');
    const doc = (c: Cluster) => toWireCluster(c) as unknown as Record<string, unknown>;
    const [t1, t2, s1] = w.clusters as [Cluster, Cluster, Cluster];
    const statusOnly = { ...doc(t2), status: { ...doc(t2).status!, next_version: 'x' } };
    const edited = { ...doc(s1), config_items: { a: 'b' } };

    // Act
    const quiet = await run(w, changed, {
      trigger: 'registry',
      changes: [{ eventName: 'MODIFY', clusterId: t2.id, oldDocument: doc(t2), newDocument: statusOnly }],
    });
    const callsAfterQuiet = { ...w.executions.calls };
    w.replace(s1.id, { configItems: { a: 'b' } });
    const busy = await run(w, changed, {
      trigger: 'registry',
      changes: [
        { eventName: 'MODIFY', clusterId: s1.id, oldDocument: doc(s1), newDocument: edited },
        { eventName: 'MODIFY', clusterId: t2.id, oldDocument: doc(t2), newDocument: statusOnly },
        { eventName: 'REMOVE', clusterId: 'aws:123456789012:eu-central-1:gone', oldDocument: doc(t1) },
      ],
    });

    // Assert
    expect(quiet).toEqual({ changed: [], removed: [], ignored: 1, issues: [] });
    expect(callsAfterQuiet).toEqual({ start: 0, resume: 0, describe: 0, countRunning: 0 });
    expect(busy).toMatchObject({ changed: [s1.id], removed: ['aws:123456789012:eu-central-1:gone'], ignored: 1 });
    expect(busy.report.registry).toMatchObject({ added: 0, modified: 1, removed: 1, ignored: 1 });
    expect(startedIds(w)).toEqual(['stable-1']);
  });

  it('publish the figures of the dashboard from their output', () => {
    const report = {
      summary: { clusters: 5, upToDate: 1, behindTarget: 4, running: 2, capacity: 8, starts: 2, skipped: 2 },
      starts: [{ how: 'started' }, { how: 'already-running' }],
      halts: [{}],
      throttles: 3,
    };
    expect(byName('DispatchFleet').metrics!(report)).toEqual([
      { name: 'ClustersBehindTarget', value: 4 },
      { name: 'UpdatesStarted', value: 1 },
      { name: 'UpdatesRunning', value: 3 },
      { name: 'HaltedWaves', value: 1 },
      { name: 'StartsThrottled', value: 3 },
    ]);
    expect(byName('RegistryChanged').metrics!({ changed: [], removed: [], ignored: 2, issues: [] })).toEqual([]);
    const roll = TASK_CATALOGUE.find((t) => t.name === 'RollNodePool')!;
    expect(roll.metrics!({ replacedNow: 2, blockedBy: 'pod default/web: PDB allows 0' })).toEqual([
      { name: 'NodesReplaced', value: 2 },
      { name: 'DrainsBlocked', value: 1 },
    ]);
    expect(roll.metrics!({ replacedNow: 1, drainSeconds: 84 })).toEqual([
      { name: 'NodesReplaced', value: 1 },
      { name: 'DrainsBlocked', value: 0 },
      { name: 'DrainSeconds', value: 84, unit: 'Seconds' },
    ]);
    const deploy = TASK_CATALOGUE.find((t) => t.name === 'DeployStacks')!;
    expect(deploy.metrics!({ status: 'IN_PROGRESS', waitSeconds: 15, message: '', started: 2 })).toEqual([
      { name: 'StackOperations', value: 2 },
    ]);
  });

  it('PlanPullRequest starts a plan of the head per cluster the base feeds; ReportToForge reports plans and updates', async () => {
    // Arrange
    const w = world();
    const head = 'c'.repeat(40);
    const github = new FakeGithub({
      tokens: ['t'],
      repositories: { 'acme/cluster-config': new Set([COMMIT_A, COMMIT_B, head]) },
      pulls: { 'acme/cluster-config': [7] },
    });
    await github.listen();
    const ports = {
      ...w.ports,
      forge: new GithubForge({ apiUrl: github.url, token: async () => 't' }),
      artifacts: new MemoryArtifactStore(),
    };
    const runWith = (task: AnyTask, payload: unknown) =>
      runTask(
        task,
        payload,
        restrictPorts(task.name, task.ports, factoriesOf(recordingPorts(task.name, ports, touched))),
      );
    const accepted = {
      repository: 'acme/cluster-config',
      number: 7,
      head,
      base: 'refs/heads/main',
      deliveryId: 'd',
      affected: 2,
      clusters: [],
    };

    // Act
    const plans: any = await runWith(byName('PlanPullRequest'), accepted);
    const again: any = await runWith(byName('PlanPullRequest'), accepted);
    const plan = w.executions.started[0]!;
    const reportedPlan: any = await runWith(byName('ReportToForge'), {
      name: plan.name,
      status: 'RUNNING',
      input: JSON.stringify(plan.input),
    });
    const update = { clusterId: w.clusters[0]!.id, action: 'provision', targetVersion: `${COMMIT_B}#h` };
    const reportedUpdate: any = await runWith(byName('ReportToForge'), {
      name: 'u',
      status: 'SUCCEEDED',
      input: JSON.stringify(update),
    });
    await github.close();

    // Assert
    expect(plans.started.map((id: string) => id.split(':').at(-1))).toEqual(['test-1', 'test-2']);
    expect(again).toMatchObject({ started: [], alreadyPlanned: plans.started });
    expect(plan.input).toMatchObject({
      action: 'plan',
      pullRequest: { head, base: 'main', configVersion: head, sourceVersions: { main: head } },
    });
    expect(reportedPlan.message).toContain('acme/cluster-config#7: plan comment created');
    expect(reportedUpdate.statuses).toEqual([
      { repository: 'acme/cluster-config', sha: COMMIT_B, context: 'clm/test-1', state: 'success' },
    ]);
  });

  it('touched exactly the ports each declares (every triggered task ran above)', () => {
    const { touched: used, declared } = touchedAndDeclared(TRIGGERED, touched);
    // DispatchFleet's artefacts: every pass writes the fleet page (its drift check also reads applied manifests).
    expect(used).toEqual(declared);
  });
});
