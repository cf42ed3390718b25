import type { KubeObject } from '../../../lambdas/ports/kube-cluster';
import { hookPrefix, hookVerdict, pendingHooks } from '../../../lambdas/core/rollout/lifecycle-hooks';
import { attachmentsOf, detachVerdict } from '../../../lambdas/core/rollout/volume-detach';
import { eventually } from '../support/eventually';
import { FIELD_MANAGER, KWOK_NODES, KubeExampleCluster, ordered } from '../support/kube-example-cluster';

// The roll's safety gates against a real kube-apiserver + controller-manager + scheduler (KWOK as the kubelets): what
// they read is what the API server shows — VolumeAttachments (storage.k8s.io/v1, stored as an attacher stores them),
// hook annotations on nodes (set and removed as an external controller does), the owners' ready replicas.
// Not run yet when written (the control plane of the integration suite was still being built).
const cluster = new KubeExampleCluster();
const kube = cluster.kube;
const FM = FIELD_MANAGER;

beforeAll(async () => {
  await cluster.setUp();
  // The example workloads (a Deployment's ReplicaSet and a StatefulSet among them), CRDs first.
  const [first, rest] = ordered(cluster.exampleObjects());
  await kube.apply(first, { fieldManager: FM });
  await eventually('example objects applied', () => kube.apply(rest, { fieldManager: FM }));
}, 180_000);
afterAll(() => cluster.tearDown(), 180_000);

describe('the roll gates on kube-apiserver', () => {
  it('lists the VolumeAttachments naming a node until they are gone; the detach wait sees both', async () => {
    const [target, other] = [KWOK_NODES[1]!, KWOK_NODES[2]!];
    const attachment: KubeObject = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'csi-clm-int-0' },
      spec: { attacher: 'ebs.csi.aws.com', nodeName: target, source: { persistentVolumeName: 'kube-int-pv-0' } },
    };
    await kube.apply([attachment], { fieldManager: FM });

    const onTarget = await kube.listVolumeAttachments(target);
    const all = await kube.listVolumeAttachments();
    const onOther = await kube.listVolumeAttachments(other);

    expect(onTarget).toEqual([
      { name: 'csi-clm-int-0', nodeName: target, persistentVolumeName: 'kube-int-pv-0', attached: false },
    ]);
    expect(all.map((a) => a.name)).toContain('csi-clm-int-0');
    expect(onOther.map((a) => a.name)).not.toContain('csi-clm-int-0');
    expect(detachVerdict(target, attachmentsOf(all, target), undefined, 60_000, Date.now()).kind).toBe('wait');

    await expect(kube.delete({ kind: 'VolumeAttachment', name: 'csi-clm-int-0' })).resolves.toBe('deleted');
    const gone = await eventually('VolumeAttachment gone', async () => {
      const left = await kube.listVolumeAttachments();
      if (left.some((a) => a.name === 'csi-clm-int-0')) throw new Error('csi-clm-int-0 still listed');
      return left;
    });
    expect(detachVerdict(target, attachmentsOf(gone, target), Date.now(), 60_000, Date.now())).toEqual({
      kind: 'detached',
    });
  });

  it('sees the pre-drain / pre-terminate hook annotations an external controller sets and removes', async () => {
    const target = KWOK_NODES[2]!;
    const drainHook = `${hookPrefix('pre-drain')}backup`;
    const terminateHook = `${hookPrefix('pre-terminate')}deregister`;
    await kube.patchNode(target, { annotations: { [drainHook]: '', [terminateHook]: 'lb-1' } });

    const hooked = (await kube.listNodes()).find((n) => n.name === target)!;

    expect(pendingHooks(hooked, 'pre-drain')).toEqual(['backup']);
    expect(pendingHooks(hooked, 'pre-terminate')).toEqual(['deregister']);
    expect(
      hookVerdict(target, pendingHooks(hooked, 'pre-drain'), 'pre-drain', undefined, 60_000, Date.now()),
    ).toMatchObject({
      kind: 'wait',
      blocked: expect.stringContaining(`pre-drain hook(s) backup on node ${target}`),
    });

    await kube.patchNode(target, { annotations: { [drainHook]: null, [terminateHook]: null } });
    const released = (await kube.listNodes()).find((n) => n.name === target)!;
    expect([pendingHooks(released, 'pre-drain'), pendingHooks(released, 'pre-terminate')]).toEqual([[], []]);
  });

  it('reads the ready replicas of the owners of running pods (ReplicaSet, StatefulSet); a missing owner is undefined', async () => {
    await eventually(
      'pods of a ReplicaSet and a StatefulSet running',
      async () => {
        const kinds = new Set((await kube.listPods()).filter((p) => p.phase === 'Running').map((p) => p.owner?.kind));
        return kinds.has('ReplicaSet') && kinds.has('StatefulSet');
      },
      120_000,
    );
    // Pods of other suites being torn down (their node gone, or deleting) say nothing about their owners' readiness.
    const nodes = new Set((await kube.listNodes()).map((n) => n.name));
    const pods = (await kube.listPods()).filter(
      (p) =>
        (p.owner?.kind === 'ReplicaSet' || p.owner?.kind === 'StatefulSet') &&
        !p.deleting &&
        p.nodeName !== undefined &&
        nodes.has(p.nodeName),
    );
    const owners = [
      ...new Map(pods.map((p) => [`${p.owner!.kind} ${p.namespace}/${p.owner!.name}`, p] as const)).values(),
    ].map((p) => ({ kind: p.owner!.kind, namespace: p.namespace, name: p.owner!.name }));
    expect(owners.map((o) => o.kind)).toEqual(expect.arrayContaining(['ReplicaSet', 'StatefulSet']));

    for (const owner of owners) {
      const readiness = await eventually(
        `${owner.kind} ${owner.namespace}/${owner.name} has all its replicas ready`,
        async () => {
          const r = await kube.workloadReadiness(owner);
          if (!r || r.desired === 0 || r.ready !== r.desired) throw new Error(`readiness ${JSON.stringify(r)}`);
          return r;
        },
        120_000,
      );
      expect(readiness.ready).toBe(readiness.desired);
    }
    await expect(
      kube.workloadReadiness({ kind: 'StatefulSet', namespace: 'data', name: 'no-such-set' }),
    ).resolves.toBeUndefined();
    await expect(kube.workloadReadiness({ kind: 'Job', namespace: 'data', name: 'anything' })).resolves.toBeUndefined();
  });
});
