import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDbFleetStore } from '../../../lambdas/adapters/fleet/dynamodb-fleet-store';
import { openFileFleetStore } from '../../../lambdas/adapters/fleet/file-fleet-store';
import { MemoryFleetStore } from '../../../lambdas/adapters/fleet/memory-fleet-store';
import type { ClusterFleetState, WaveHalt } from '../../../lambdas/core/dispatch/fleet-state';
import type { SourceCommit } from '../../../lambdas/core/webhook/push-match';
import type { FleetStore } from '../../../lambdas/ports/fleet-store';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../support/dynamodb-local';

// The same contract, against the in-memory store (CLI, simulator) and a real DynamoDB Local.
let local: DynamoDbLocal;
let tables = 0;

beforeAll(async () => {
  local = await startDynamoDbLocal();
}, 60_000);

afterAll(async () => {
  await local?.stop();
});

const stores: [string, () => Promise<FleetStore>][] = [
  ['memory', async () => new MemoryFleetStore()],
  [
    'dynamodb-local',
    async () => {
      const name = `fleet-${++tables}`;
      await local.createTable(name);
      return new DynamoDbFleetStore(local.client, name);
    },
  ],
];

const HOUR = 3_600_000;
const claim = (now: number) => ({ now, ttlMs: 72 * HOUR, staleAfterMs: 15 * 60_000 });

function halt(configVersion: string, wave = 'test (criticality 1)'): WaveHalt {
  return {
    configVersion,
    wave,
    heldWaves: ['staging (criticality 2)'],
    failed: [{ clusterId: 'c1', targetVersion: `${configVersion}#h`, error: 'ConfigError' }],
    failedCount: 1,
    since: 1,
    reason: `c1 failed updating to ${configVersion}: ConfigError`,
  };
}

describe.each(stores)('FleetStore (%s)', (_kind, create) => {
  it('claims a delivery id once; a replay gets when it was first seen', async () => {
    const store = await create();
    await expect(store.claimDelivery('d-1', claim(1000))).resolves.toEqual({ claimed: true });
    await store.completeDelivery('d-1', 1500, 'push matched 3 clusters');
    await expect(store.claimDelivery('d-1', claim(2000))).resolves.toEqual({ claimed: false, firstSeenAt: 1000 });
    await expect(store.claimDelivery('d-2', claim(2000))).resolves.toEqual({ claimed: true });
  });

  it('lets an unfinished claim be taken over only once it is stale, and an expired one always', async () => {
    const store = await create();
    await store.claimDelivery('d-1', claim(0));
    await expect(store.claimDelivery('d-1', claim(60_000))).resolves.toEqual({ claimed: false, firstSeenAt: 0 });
    await expect(store.claimDelivery('d-1', claim(15 * 60_000))).resolves.toEqual({ claimed: true });
    await store.completeDelivery('d-1', 15 * 60_000, 'done');
    await expect(store.claimDelivery('d-1', claim(71 * HOUR))).resolves.toMatchObject({ claimed: false });
    await expect(store.claimDelivery('d-1', claim(73 * HOUR))).resolves.toEqual({ claimed: true });
  });

  it('keeps the newest pushed commit per source and ref', async () => {
    const store = await create();
    const commit = (sha: string, pushedAt: number): SourceCommit => ({
      source: 'main',
      ref: 'refs/heads/main',
      commit: sha.repeat(40),
      deleted: false,
      pushedAt,
      deliveryId: `d-${sha}`,
      recordedAt: pushedAt + 1,
    });
    expect(await store.recordCommit(commit('b', 2000))).toBe(true);
    expect(await store.recordCommit(commit('a', 1000))).toBe(false); // a late delivery of an older push
    expect(await store.getCommit('main', 'refs/heads/main')).toEqual(commit('b', 2000));
    expect(await store.recordCommit(commit('c', 3000))).toBe(true);
    expect((await store.getCommit('main', 'refs/heads/main'))?.commit).toBe('c'.repeat(40));
    expect(await store.getCommit('main', 'refs/heads/beta')).toBeUndefined();
  });

  it('writes cluster states over the revision they were read at, and reports lost races', async () => {
    const store = await create();
    const fresh: ClusterFleetState = { clusterId: 'c1', lastSeenHash: 'h1', revision: 0 };
    expect(await store.saveClusterStates([fresh, { clusterId: 'c2', revision: 0 }])).toEqual({ conflicts: [] });
    const loaded = (await store.loadFleet()).clusters;
    expect(loaded.get('c1')).toEqual({ clusterId: 'c1', lastSeenHash: 'h1', revision: 1 });
    expect(await store.saveClusterStates([fresh])).toEqual({ conflicts: ['c1'] });
    const next = { ...loaded.get('c1')!, blocked: 'paused@' };
    expect(await store.saveClusterStates([next, { ...next, clusterId: 'c2', revision: 5 }])).toEqual({
      conflicts: ['c2'],
    });
    expect((await store.loadFleet()).clusters.get('c1')).toMatchObject({ blocked: 'paused@', revision: 2 });
    await store.forgetClusters(['c1']);
    expect([...(await store.loadFleet()).clusters.keys()]).toEqual(['c2']);
  });

  it('replaces the halts and keeps overrides, all in one read', async () => {
    const store = await create();
    await store.saveHalts([halt('v1'), halt('v2')]);
    await store.saveHalts([halt('v2', 'staging (criticality 2)')]);
    await store.putOverride({ configVersion: 'v2', reason: 'known flake', by: 'jdoe', at: 5 });
    await store.putOverride({ configVersion: 'v3', reason: 'x', by: 'jdoe', at: 6 });
    await store.removeOverride('v3');
    const fleet = await store.loadFleet();
    expect(fleet.halts).toEqual([halt('v2', 'staging (criticality 2)')]);
    expect(fleet.overrides).toEqual([{ configVersion: 'v2', reason: 'known flake', by: 'jdoe', at: 5 }]);
  });

  it('reads a fleet larger than one DynamoDB page', async () => {
    const store = await create();
    const big = 'x'.repeat(2000); // ~2 KB per item: 700 items span two 1 MB pages
    const states = Array.from({ length: 700 }, (_, i) => ({ clusterId: `c${i}`, lastSeenHash: big, revision: 0 }));
    expect(await store.saveClusterStates(states)).toEqual({ conflicts: [] });
    expect((await store.loadFleet()).clusters.size).toBe(700);
    await store.forgetClusters(states.map((s) => s.clusterId).slice(0, 60));
    expect((await store.loadFleet()).clusters.size).toBe(640);
  });
});

describe('openFileFleetStore', () => {
  it('keeps the fleet in fleet.json across processes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clm-fleet-'));
    try {
      const first = openFileFleetStore(dir);
      await first.store.claimDelivery('d-1', claim(1));
      await first.store.saveClusterStates([{ clusterId: 'c1', lastSeenHash: 'h', revision: 0 }]);
      first.save();
      const second = openFileFleetStore(dir);
      expect(await second.store.claimDelivery('d-1', claim(2))).toEqual({ claimed: false, firstSeenAt: 1 });
      expect((await second.store.loadFleet()).clusters.get('c1')).toMatchObject({ lastSeenHash: 'h', revision: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
