import { MemoryProgressStore } from '../../../lambdas/adapters/progress/memory-progress-store';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { nodeCheckItems } from '../../../lambdas/core/node-renewal/node-check-items';
import type { Registry } from '../../../lambdas/ports/registry';
import {
  recordClusterProblem,
  recordNodeCheckItems,
  withRecordedNodeChecks,
  writeStatus,
} from '../../../lambdas/tasks/step/cluster-status';
import { FakeClock } from '../../support/fakes/fake-clock';

const ID = 'aws:123456789012:eu-central-1:kube-1';
const status = { currentVersion: 'v1', lastVersion: '', nextVersion: '', problems: [] };

function cluster(): Cluster {
  return { id: ID, configItems: {}, status, nodePools: [] } as unknown as Cluster;
}

function ports(persistsStatus: boolean) {
  const registry = {
    persistsStatus,
    description: 'test',
    updateStatus: jest.fn(async () => undefined),
  } as unknown as Registry;
  return { progress: new MemoryProgressStore(), clock: new FakeClock(), registry };
}

describe('the node-check items in the stored status', () => {
  const record = nodeCheckItems('v1', { node_repair: 'true' });

  it('is written by a render once, and kept by every later status write', async () => {
    const p = ports(false);
    await recordNodeCheckItems(p, cluster(), record);
    const first = await p.progress.getStatus(ID);
    expect(first).toMatchObject({ ...status, nodeChecks: record });
    p.clock.advance(1000);
    await recordNodeCheckItems(p, cluster(), record);
    expect((await p.progress.getStatus(ID))!.updatedAt).toBe(first!.updatedAt);

    await writeStatus(p, cluster(), { ...status, lastVersion: 'v0' });
    await recordClusterProblem(p, ID, cluster(), { type: 'x', title: 'a problem' }, p.clock.now());
    expect((await p.progress.getStatus(ID))!.nodeChecks).toEqual(record);
    const persisting = ports(true);
    await recordNodeCheckItems(persisting, cluster(), record);
    await recordClusterProblem(persisting, ID, cluster(), { type: 'x', title: 'a problem' }, 1);
    expect((await persisting.progress.getStatus(ID))!.nodeChecks).toEqual(record);
  });

  it('gives the pass the clusters with the recorded items under their own', async () => {
    const p = ports(true);
    await recordNodeCheckItems(p, cluster(), record);
    const [judged] = await withRecordedNodeChecks(p, [cluster()]);
    expect(judged!.configItems).toEqual({ node_repair: 'true' });
  });
});
