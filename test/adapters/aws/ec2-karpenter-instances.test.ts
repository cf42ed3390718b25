// The EC2 side of Karpenter pools: finding the instances Karpenter launched for a cluster and terminating them.
import { DescribeInstancesCommand, TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import type { DescribeInstancesCommandOutput, InstanceStateName } from '@aws-sdk/client-ec2';
import 'aws-sdk-client-mock-jest';
import { RolloutError } from '../../../lambdas/shared/errors';
import { OWNED, backend, cluster, ec2 } from './asg-node-pool-fixtures';

const KARPENTER = (pool: string) => ({ Key: 'karpenter.sh/nodepool', Value: pool });
const reservation = (
  ...instances: { id: string; tags: { Key: string; Value: string }[]; state?: InstanceStateName }[]
): Partial<DescribeInstancesCommandOutput> => ({
  Reservations: [
    {
      Instances: instances.map((i) => ({ InstanceId: i.id, Tags: i.tags, State: { Name: i.state ?? 'running' } })),
    },
  ],
});

beforeEach(() => ec2.reset());

describe('AsgNodePoolBackend: Karpenter instances (EC2)', () => {
  it('lists the cluster’s instances that carry the karpenter.sh/nodepool tag, by tag filters, alive states only', async () => {
    ec2
      .on(DescribeInstancesCommand)
      .resolves(
        reservation(
          { id: 'i-b', tags: [OWNED, KARPENTER('burst')] },
          { id: 'i-a', tags: [OWNED, KARPENTER('gpu')], state: 'pending' },
        ),
      );
    expect(await backend().karpenterInstances(cluster)).toEqual([
      { instanceId: 'i-a', pool: 'gpu', state: 'pending' },
      { instanceId: 'i-b', pool: 'burst', state: 'running' },
    ]);
    expect(ec2).toHaveReceivedCommandWith(DescribeInstancesCommand, {
      Filters: [
        { Name: `tag:kubernetes.io/cluster/${cluster.name}`, Values: ['owned'] },
        { Name: 'tag-key', Values: ['karpenter.sh/nodepool'] },
        { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] },
      ],
    });
    await backend().karpenterInstances(cluster, 'burst');
    expect(ec2).toHaveReceivedCommandWith(DescribeInstancesCommand, {
      Filters: expect.arrayContaining([{ Name: 'tag:karpenter.sh/nodepool', Values: ['burst'] }]),
    });
  });

  it('terminates only the ids still alive, and nothing when all are gone', async () => {
    ec2.on(DescribeInstancesCommand).resolves(reservation({ id: 'i-1', tags: [OWNED, KARPENTER('burst')] }));
    ec2.on(TerminateInstancesCommand).resolves({});
    await backend().terminateInstances(cluster, ['i-1', 'i-gone', 'i-1']);
    expect(ec2).toHaveReceivedCommandWith(TerminateInstancesCommand, { InstanceIds: ['i-1'] });
    ec2.reset();
    ec2.on(DescribeInstancesCommand).resolves({ Reservations: [] });
    await backend().terminateInstances(cluster, ['i-gone']);
    expect(ec2).not.toHaveReceivedCommand(TerminateInstancesCommand);
  });

  it('refuses an instance that is not the cluster’s or not Karpenter’s, terminating none', async () => {
    ec2
      .on(DescribeInstancesCommand)
      .resolves(reservation({ id: 'i-1', tags: [OWNED, KARPENTER('burst')] }, { id: 'i-asg', tags: [OWNED] }));
    await expect(backend().terminateInstances(cluster, ['i-1', 'i-asg'])).rejects.toThrow(RolloutError);
    await expect(backend().terminateInstances(cluster, ['i-1', 'i-asg'])).rejects.toThrow(
      /refusing to terminate i-asg: not tagged kubernetes\.io\/cluster\/.*=owned with a karpenter\.sh\/nodepool tag/,
    );
    expect(ec2).not.toHaveReceivedCommand(TerminateInstancesCommand);
  });
});
