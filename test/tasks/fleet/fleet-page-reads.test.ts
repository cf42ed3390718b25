import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { MemoryFleetStore } from '../../../lambdas/adapters/fleet/memory-fleet-store';
import { DynamoDbProgressStore } from '../../../lambdas/adapters/progress/dynamodb-progress-store';
import { MemoryProgressStore } from '../../../lambdas/adapters/progress/memory-progress-store';
import type { FleetSnapshot } from '../../../lambdas/core/dispatch/fleet-state';
import { FLEET_PAGE_KEY } from '../../../lambdas/core/fleet-page/fleet-page-object';
import { renderFleetPage } from '../../../lambdas/core/fleet-page/render-fleet-page';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { newRunRecord, type RunRecord } from '../../../lambdas/core/model/run';
import type { ProgressStore } from '../../../lambdas/ports/progress-store';
import { fleetPageOf, fleetPageReports, fleetReports, publishFleetPage } from '../../../lambdas/tasks/fleet/fleet-page';
import { COMMIT_A, COMMIT_B, fleetCluster, record, settings, state } from '../../core/dispatch/fleet-fixtures';
import { FakeClock } from '../../support/fakes/fake-clock';
import { MemoryArtifactStore } from '../../support/fakes/memory-artifact-store';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../support/dynamodb-local';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const NEXT = `${COMMIT_B}#next`;

function runOf(cluster: Cluster, targetVersion: string, changes: Partial<RunRecord> = {}): RunRecord {
  const fresh = newRunRecord(
    { clusterId: cluster.id, targetVersion, action: 'provision', holder: `exec-${cluster.alias}`, previousVersion: '' },
    NOW - 3_600_000,
  );
  const nodes = { 'i-1': { instanceId: 'i-1', state: 'terminated' as const } };
  return {
    ...fresh,
    phase: 'RollNodePools',
    pools: { workers: { status: 'rolling', total: 4, replaced: 1, steps: 4, nodes, startedAt: NOW - 1_800_000 } },
    ...changes,
  };
}

/** A cluster moving to NEXT (its status names it), or at its version. */
function moving(cluster: Cluster): Cluster {
  return { ...cluster, status: { ...cluster.status, nextVersion: NEXT } };
}

describe('the fleet page read in batches', () => {
  it('is the page `clm status --html` writes, for every kind of cluster', async () => {
    // Arrange: idle clusters (a finished run, one with a lease left behind), a rolling one (its lease, a blocked
    // pool), one that failed mid-roll (no lease), one paused, one awaiting approval, one on a simulated lease, a new one
    const progress = new MemoryProgressStore();
    const idle = fleetCluster('idle', 'test', { current: COMMIT_A });
    const leftLease = fleetCluster('left-lease', 'test', { current: COMMIT_A });
    const rolling = moving(fleetCluster('rolling', 'staging', { current: COMMIT_A }));
    const failed = moving(fleetCluster('failed', 'staging', { current: COMMIT_A }));
    const paused = fleetCluster('paused', 'production', { current: COMMIT_A });
    const approval = moving(fleetCluster('approval', 'production', { current: COMMIT_A }));
    const simulated = moving(fleetCluster('simulated', 'test', { current: COMMIT_A }));
    const fresh = fleetCluster('new', 'production');
    const clusters = [idle, leftLease, rolling, failed, paused, approval, simulated, fresh];
    for (const c of [idle, leftLease, rolling, failed, paused, approval, simulated])
      await progress.putRun(runOf(c, c.status.currentVersion, { phase: 'Finalize', completedAt: NOW - 86_400_000 }));
    await progress.acquireLease(leftLease.id, 'exec-gone', 60_000, NOW - 3_600_000);
    const blocked = { status: 'rolling' as const, total: 4, replaced: 2, steps: 4, nodes: {} };
    await progress.putRun(
      runOf(rolling, NEXT, {
        pools: { ...runOf(rolling, NEXT).pools, stateful: { ...blocked, blockedBy: 'PDB db/pg allows 0 disruptions' } },
      }),
    );
    await progress.acquireLease(rolling.id, 'exec-rolling', 600_000, NOW);
    await progress.putRun(runOf(failed, NEXT, { phase: 'RollNodePools' }));
    await progress.putControls(paused.id, { paused: true, by: 'ana@laptop', at: NOW, reason: 'incident 42' });
    await progress.putControls(approval.id, {
      approval: { status: 'PENDING', planDigest: 'd1g3st', summary: '2 stacks change', requestedAt: NOW },
    } as never);
    await progress.putRun(runOf(simulated, NEXT));
    await progress.acquireLease(simulated.id, 'cli:sim:1:1', 600_000, 1_000, 'simulated');
    const fleet: FleetSnapshot = {
      clusters: new Map([[failed.id, state(failed.id, record({ name: 'update-failed', state: 'failed' }))]]),
      halts: [],
      overrides: [],
    };
    const targets = new Map(clusters.map((c) => [c.id, c === fresh ? `${COMMIT_B}#new` : undefined]));
    const context = { fleet, settings: settings(), now: NOW, targets };

    // Act
    const full = await fleetReports(progress, clusters, fleet, targets, { system: NOW });
    const batched = await fleetPageReports(progress, clusters, fleet, targets, { system: NOW });

    // Assert: the same page, although the batched reports leave out what the page does not show
    const page = fleetPageOf(clusters, full, context);
    expect(fleetPageOf(clusters, batched, context)).toEqual(page);
    expect(renderFleetPage(fleetPageOf(clusters, batched, context))).toBe(renderFleetPage(page));
    const states = Object.fromEntries(page.waves.flatMap((w) => w.clusters.map((c) => [c.alias, c.state])));
    expect(states).toEqual({
      idle: 'up to date',
      'left-lease': 'up to date',
      rolling: 'running',
      failed: 'failed',
      paused: 'blocked',
      approval: 'blocked',
      simulated: 'running',
      new: 'pending',
    });
    const rollingRow = page.waves.flatMap((w) => w.clusters).find((c) => c.alias === 'rolling')!;
    expect(rollingRow.blocks).toEqual(['stateful: PDB db/pg allows 0 disruptions']);
    expect(rollingRow.eta).toBeDefined();
    const failedRow = page.waves.flatMap((w) => w.clusters).find((c) => c.alias === 'failed')!;
    expect(failedRow.runs).toEqual([`provision to ${NEXT}: RollNodePools`, 'workers: 1/4 nodes replaced (rolling)']);
    const byId = (reports: typeof full, c: Cluster) => reports.find((r) => r.id === c.id)!;
    expect(byId(full, idle).run?.finished).toBe(true);
    expect(byId(batched, idle).run).toBeUndefined();
    expect(byId(full, leftLease).lease?.holder).toBe('exec-gone');
    expect(byId(batched, leftLease).lease).toBeUndefined();
  });

  describe('on DynamoDB Local', () => {
    let local: DynamoDbLocal;
    beforeAll(async () => {
      local = await startDynamoDbLocal();
    }, 60_000);
    afterAll(async () => {
      await local?.stop();
    });

    /** A store whose DynamoDB requests are counted by operation (the X-Amz-Target header). */
    async function countedStore(): Promise<{ store: DynamoDbProgressStore; requests: Map<string, number> }> {
      const table = `fleet-page-${Math.random().toString(36).slice(2)}`;
      await local.createTable(table);
      const client = new DynamoDBClient({
        endpoint: local.endpoint,
        region: 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      const requests = new Map<string, number>();
      client.middlewareStack.add(
        (next) => async (args) => {
          const headers = (args.request as { headers?: Record<string, string> }).headers ?? {};
          const operation = (headers['x-amz-target'] ?? '').split('.').pop()!;
          requests.set(operation, (requests.get(operation) ?? 0) + 1);
          return next(args);
        },
        { step: 'finalizeRequest', name: 'countRequests' },
      );
      return { store: new DynamoDbProgressStore(client, table), requests };
    }

    // The leases on the real clock: the table expires items by their `ttl` (a day after a lease's expiry), as AWS does.
    const now = Date.now();

    async function publish(progress: ProgressStore, clusters: readonly Cluster[]) {
      const artifacts = new MemoryArtifactStore();
      const clock = new FakeClock(now);
      const fleet = new MemoryFleetStore();
      await publishFleetPage({ progress, fleet, artifacts, clock }, clusters, new Map());
      return artifacts.objects.get(FLEET_PAGE_KEY)!;
    }

    it('costs an idle fleet of 250 clusters two BatchGetItem calls per 100 clusters and no single read', async () => {
      // Arrange: every cluster at its version, its finished run stored, none paused
      const { store, requests } = await countedStore();
      const clusters = Array.from({ length: 250 }, (_, i) => fleetCluster(`idle-${i}`, 'test', { current: COMMIT_A }));
      for (const c of clusters) await store.putRun(runOf(c, c.status.currentVersion, { completedAt: NOW - 60_000 }));
      requests.clear();

      // Act
      const html = await publish(store, clusters);

      // Assert: the runs' ends (projected) and the controls, 100 keys a call; no lease read, nothing one by one
      expect(Object.fromEntries(requests)).toEqual({ BatchGetItem: 6 });
      // every cluster is on the page, up to date: a wave's many up-to-date clusters fold into one list
      expect(html.match(/data-cluster="[^"]+"/g)).toHaveLength(250);
      expect(html).toContain('<span class="badge">250 up to date</span>');
    }, 60_000);

    it('reads whole only the runs in progress, and only their leases', async () => {
      // Arrange: 250 clusters, 5 of them rolling to the next version under their lease
      const { store, requests } = await countedStore();
      const clusters = Array.from({ length: 250 }, (_, i) => {
        const c = fleetCluster(`fleet-${i}`, 'test', { current: COMMIT_A });
        return i % 50 === 0 ? moving(c) : c;
      });
      for (const c of clusters) {
        await store.putRun(runOf(c, c.status.currentVersion, { completedAt: NOW - 60_000 }));
        if (c.status.nextVersion) {
          await store.putRun(runOf(c, NEXT));
          await store.acquireLease(c.id, `exec-${c.alias}`, 600_000, now);
        }
      }
      requests.clear();

      // Act
      const html = await publish(store, clusters);

      // Assert: 3 + 3 as idle, then one call for the 5 runs whole and one for their 5 leases
      expect(Object.fromEntries(requests)).toEqual({ BatchGetItem: 8 });
      expect(html.match(/class="card state-running"/g)).toHaveLength(5);
      expect(html).toContain('workers: 1/4 nodes replaced (rolling)');
    }, 60_000);
  });
});
