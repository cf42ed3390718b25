// What the roll gates read in the simulator: the attach-detach controller (a StatefulSet pod's volumes attach to the
// node it is bound to, one VolumeAttachment per volume and node, detach `volumeDetachSeconds` after the pod left, and
// vanish with the node), the owners' ready replicas, and the scenario's CloudWatch alarms.
import { runningCluster, testCluster } from './fixtures';

const CLUSTER = testCluster().id;
const scenario = {
  timings: { podStartSeconds: 10, podTerminationSeconds: 30, volumeDetachSeconds: 40 },
  clusters: {
    [CLUSTER]: {
      workloads: [
        { kind: 'StatefulSet' as const, name: 'pg', replicas: 1, volumeClaims: ['data'] },
        { kind: 'Deployment' as const, name: 'web', replicas: 2 },
      ],
    },
  },
};

describe('simulated VolumeAttachments', () => {
  it('attaches on schedule, detaches some time after the pod left, and answers the readiness of owners', async () => {
    const { world, ports } = await runningCluster(scenario);
    const pods = await ports.kube.listPods({ namespace: 'default', labelSelector: 'app=pg' });
    const pg0 = pods.find((p) => p.name === 'pg-0')!;

    const attached = await ports.kube.listVolumeAttachments(pg0.nodeName);
    const nodeBefore = (await ports.kube.listNodes()).find((n) => n.name === pg0.nodeName)!;
    await ports.kube.patchNode(pg0.nodeName!, { unschedulable: true });
    await ports.kube.evictPod('default', 'pg-0');
    world.advance(30_000); // the pod's grace period: gone from the node now
    const whileDetaching = await ports.kube.listVolumeAttachments(pg0.nodeName);
    const readinessWhileAway = await ports.kube.workloadReadiness({
      kind: 'StatefulSet',
      namespace: 'default',
      name: 'pg',
    });
    world.advance(40_000);
    const afterDetach = await ports.kube.listVolumeAttachments(pg0.nodeName);
    const nodeAfter = (await ports.kube.listNodes()).find((n) => n.name === pg0.nodeName)!;
    // Its volume lives in that node's zone, and no other node is there: the pod comes back once the node is uncordoned.
    await ports.kube.patchNode(pg0.nodeName!, { unschedulable: false });
    world.advance(60_000);
    const reattached = await ports.kube.listVolumeAttachments(pg0.nodeName);
    const readinessLater = await ports.kube.workloadReadiness({
      kind: 'StatefulSet',
      namespace: 'default',
      name: 'pg',
    });

    expect(attached).toEqual([
      {
        name: expect.stringMatching(/^csi-[0-9a-f]{16}$/),
        nodeName: pg0.nodeName,
        persistentVolumeName: expect.stringMatching(/^pvc-/),
        attached: true,
      },
    ]);
    expect(nodeBefore.volumesAttached).toBe(true);
    expect(whileDetaching).toEqual([{ ...attached[0], attached: false }]);
    expect(readinessWhileAway).toEqual({ desired: 1, ready: 0 });
    expect(afterDetach).toEqual([]);
    expect(nodeAfter.volumesAttached).toBe(false);
    expect(readinessLater).toEqual({ desired: 1, ready: 1 });
    expect(reattached).toEqual(attached);
    expect(
      await ports.kube.workloadReadiness({ kind: 'StatefulSet', namespace: 'default', name: 'nope' }),
    ).toBeUndefined();
    const [rs] = (await ports.kube.listPods({ labelSelector: 'app=web' })).map((p) => p.owner!);
    expect(await ports.kube.workloadReadiness({ kind: rs!.kind, namespace: 'default', name: rs!.name })).toEqual({
      desired: 2,
      ready: 2,
    });
    expect(world.invariants().pdbViolations).toBe(0);
  });
});

describe('simulated CloudWatch alarms', () => {
  it('are in their state inside the scenario window, OK outside it, and absent when no entry names them', async () => {
    const { world, ports } = await runningCluster({
      faults: { alarms: [{ name: 'web-5xx', fromSeconds: 0, untilSeconds: 10_000 }] },
    });
    const elapsed = (world.now - Date.parse(world.scenario.startTime)) / 1000;
    world.addFaults({ alarms: [{ name: 'later', state: 'INSUFFICIENT_DATA', fromSeconds: elapsed + 60 }] });

    const first = [await ports.alarms.alarmState('web-5xx'), await ports.alarms.alarmState('later')];
    world.advance(10_000_000);
    const second = [await ports.alarms.alarmState('web-5xx'), await ports.alarms.alarmState('later')];

    expect(first).toEqual(['ALARM', 'OK']);
    expect(second).toEqual(['OK', 'INSUFFICIENT_DATA']);
    expect(await ports.alarms.alarmState('unknown')).toBeUndefined();
    expect(world.apiCalls()['alarms.alarmState']).toBe(5);
  });
});
