// A StatefulSet's RollingUpdate goes through every pod, highest ordinal first, each once the others are Ready: the
// controller acts again when a recreated pod turns Ready (its readiness is the only thing that changed).
import { runningCluster } from './fixtures';

const sts = (image: string) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'db', namespace: 'default' },
  spec: {
    serviceName: 'db',
    replicas: 3,
    selector: { matchLabels: { app: 'db' } },
    template: {
      metadata: { labels: { app: 'db' } },
      spec: { containers: [{ name: 'db', image, resources: { requests: { cpu: '250m', memory: '512Mi' } } }] },
    },
  },
});

describe('a StatefulSet rolling update in the simulator', () => {
  it('replaces every pod, one at a time, until all run the new template', async () => {
    // Arrange
    const { world, ports } = await runningCluster({}, 3);
    await ports.kube.apply([sts('postgres:16')], { fieldManager: 'clm' });
    world.advance(120_000);

    // Act
    await ports.kube.apply([sts('postgres:17')], { fieldManager: 'clm' });
    world.advance(10 * 60_000);

    // Assert
    const status = (await ports.kube.list('StatefulSet', { namespace: 'default' }))[0]!.status as Record<
      string,
      unknown
    >;
    expect(status).toMatchObject({ replicas: 3, readyReplicas: 3, updatedReplicas: 3 });
    expect(status.currentRevision).toBe(status.updateRevision);
  });
});
