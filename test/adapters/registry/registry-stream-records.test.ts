import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { registryChangeRecords } from '../../../lambdas/adapters/registry/registry-stream-records';
import { registryStreamChanges } from '../../../lambdas/core/dispatch/registry-changes';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { toWireCluster } from '../../../lambdas/core/model/cluster-wire';
import { cluster } from '../../core/render/fixtures';

/** A registry item as DynamoDbRegistry writes it. */
function item(c: Cluster, updatedAt = 1): Record<string, unknown> {
  return { pk: `CLUSTER#${c.id}`, sk: 'REGISTRY', ...toWireCluster(c), updated_at: updatedAt };
}

function record(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  keys: { pk: string; sk: string },
  images: { old?: Record<string, unknown>; new?: Record<string, unknown> },
): DynamoDBRecord {
  const image = (value: Record<string, unknown>) => marshall(value, { removeUndefinedValues: true }) as never;
  return {
    eventID: `${eventName}-${keys.pk}-${keys.sk}`,
    eventName,
    eventSource: 'aws:dynamodb',
    awsRegion: 'eu-central-1',
    dynamodb: {
      Keys: image(keys),
      ...(images.new ? { NewImage: image(images.new) } : {}),
      ...(images.old ? { OldImage: image(images.old) } : {}),
      SequenceNumber: '1',
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

const key = (c: Cluster, sk = 'REGISTRY') => ({ pk: `CLUSTER#${c.id}`, sk });

describe('registry stream → changed clusters', () => {
  const a = cluster({ id: 'aws:123456789012:eu-central-1:a', localId: 'a' });
  const b = cluster({ id: 'aws:123456789012:eu-central-1:b', localId: 'b' });
  const c = cluster({ id: 'aws:123456789012:eu-central-1:c', localId: 'c' });
  const d = cluster({ id: 'aws:123456789012:eu-central-1:d', localId: 'd' });
  const e = cluster({ id: 'aws:123456789012:eu-central-1:e', localId: 'e' });

  it('yields exactly the inserted and changed clusters, never status-only writes or other items', () => {
    const statusOnly = { ...b, status: { ...b.status, currentVersion: 'abc#h', problems: [] } };
    const resized = { ...c, nodePools: c.nodePools.map((p) => ({ ...p, maxSize: p.maxSize + 2 })) };
    const decommission = { ...d, lifecycleStatus: 'decommission-requested' as const };
    const renamed = { ...e, alias: 'renamed' };
    const records = [
      record('INSERT', key(a), { new: item(a) }),
      record('MODIFY', key(b), { old: item(b), new: item(statusOnly, 2) }),
      record('MODIFY', key(c), { old: item(c), new: item(resized, 2) }),
      record('MODIFY', key(d), { old: item(d), new: item(decommission, 2) }),
      record('MODIFY', key(e), { old: item(e), new: item(renamed, 2) }),
      record('INSERT', key(a, 'RUN#v1#h'), { new: { pk: `CLUSTER#${a.id}`, sk: 'RUN#v1#h', revision: 1 } }),
      record('MODIFY', { pk: 'FLEET', sk: `CLUSTER#${a.id}` }, { new: { pk: 'FLEET', sk: `CLUSTER#${a.id}` } }),
    ];
    const changes = registryStreamChanges(registryChangeRecords(records));
    expect(changes).toEqual({ changed: [a.id, c.id, d.id], removed: [], ignored: 2, issues: [] });
  });

  it('reports removed clusters without dispatching them, and a batch that removes a cluster it changed', () => {
    const records = [
      record('MODIFY', key(a), { old: item(a), new: item({ ...a, channel: 'beta' }) }),
      record('REMOVE', key(a), { old: item(a) }),
      record('REMOVE', key(b), { old: item(b) }),
      record('INSERT', key(b), { new: item(b) }),
    ];
    expect(registryStreamChanges(registryChangeRecords(records))).toMatchObject({ changed: [b.id], removed: [a.id] });
  });

  it('counts an invalid new document as a change and says what is wrong', () => {
    const broken = { ...item(a), criticality_level: 'high' };
    const changes = registryStreamChanges(
      registryChangeRecords([record('MODIFY', key(a), { old: item(a), new: broken })]),
    );
    expect(changes.changed).toEqual([a.id]);
    expect(changes.issues).toEqual([`cluster ${a.id}: criticality_level: expected a number, got "high"`]);
  });
});
