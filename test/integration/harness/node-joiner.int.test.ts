import {
  CreateAutoScalingGroupCommand,
  DescribeAutoScalingGroupsCommand,
  TerminateInstanceInAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling';
import { CreateLaunchTemplateCommand } from '@aws-sdk/client-ec2';
import { createAwsClients, type AwsClients } from '../../../lambdas/adapters/aws/aws-clients';
import { ClientNodeKubeCluster } from '../../../lambdas/adapters/kube/client-node-kube-cluster';
import { integrationEnvironment, MOTO_CREDENTIALS, REGION, resetMoto } from '../support/environment';
import { eventually } from '../support/eventually';
import { NodeJoiner, nodeNameFor } from '../support/node-joiner';

// The harness itself: moto instances become KWOK nodes with the pool's labels; terminated instances' nodes go away.
const env = integrationEnvironment();
const kube = new ClientNodeKubeCluster({ kubeconfigPath: env.kubeconfig });
const CLUSTER_TAG = 'kubernetes.io/cluster/joiner-test';
let clients: AwsClients;

beforeAll(async () => {
  await resetMoto(env.awsEndpoint);
  clients = createAwsClients({ region: REGION, endpoint: env.awsEndpoint, credentials: MOTO_CREDENTIALS });
  const lt = await clients.ec2.send(
    new CreateLaunchTemplateCommand({
      LaunchTemplateName: 'joiner-test',
      LaunchTemplateData: { ImageId: 'ami-12c6146b', InstanceType: 'm5.large' },
    }),
  );
  await clients.autoScaling.send(
    new CreateAutoScalingGroupCommand({
      AutoScalingGroupName: 'joiner-test-worker',
      LaunchTemplate: { LaunchTemplateId: lt.LaunchTemplate!.LaunchTemplateId!, Version: '1' },
      MinSize: 2,
      MaxSize: 2,
      DesiredCapacity: 2,
      AvailabilityZones: ['eu-central-1b'],
      Tags: [
        { Key: CLUSTER_TAG, Value: 'owned', PropagateAtLaunch: true },
        { Key: 'node.kubernetes.io/node-pool', Value: 'worker', PropagateAtLaunch: true },
        { Key: 'node.kubernetes.io/role', Value: 'worker', PropagateAtLaunch: true },
      ],
    }),
  );
});

describe('NodeJoiner (moto ASG instances -> KWOK nodes)', () => {
  it('creates a Ready node per instance with providerID and pool labels, and removes the node of a terminated instance', async () => {
    const joiner = new NodeJoiner(clients, kube, CLUSTER_TAG);
    const first = await joiner.sync();
    expect(first.joined).toHaveLength(2);
    const ids = (
      await clients.autoScaling.send(
        new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: ['joiner-test-worker'] }),
      )
    ).AutoScalingGroups![0]!.Instances!.map((i) => i.InstanceId!);
    expect(first.joined.sort()).toEqual(ids.map(nodeNameFor).sort());
    const nodes = await eventually('both nodes Ready (KWOK)', async () => {
      const found = (await kube.listNodes()).filter((n) => ids.map(nodeNameFor).includes(n.name));
      return found.length === 2 && found.every((n) => n.ready) ? found : undefined;
    });
    for (const node of nodes ?? []) {
      expect(node.providerId).toMatch(/^aws:\/\/\/eu-central-1[a-c]\/i-[0-9a-f]+$/);
      expect(node.labels).toMatchObject({
        'node.kubernetes.io/node-pool': 'worker',
        'node.kubernetes.io/role': 'worker',
        type: 'kwok',
      });
    }
    expect(await joiner.sync()).toEqual({ joined: [], removed: [] });

    await clients.autoScaling.send(
      new TerminateInstanceInAutoScalingGroupCommand({ InstanceId: ids[0], ShouldDecrementDesiredCapacity: true }),
    );
    const after = await joiner.sync();
    expect(after).toEqual({ joined: [], removed: [nodeNameFor(ids[0]!)] });
    expect((await kube.listNodes()).map((n) => n.name)).not.toContain(nodeNameFor(ids[0]!));
    await clients.autoScaling.send(
      new TerminateInstanceInAutoScalingGroupCommand({ InstanceId: ids[1], ShouldDecrementDesiredCapacity: true }),
    );
    expect((await joiner.sync()).removed).toEqual([nodeNameFor(ids[1]!)]);
  });
});
