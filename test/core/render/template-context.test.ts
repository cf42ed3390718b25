import { templateContext } from '../../../lambdas/core/render/template-context';
import type { Cluster, NodePool } from '../../../lambdas/core/model/cluster';

const worker: NodePool = {
  name: 'default-worker',
  profile: 'worker-splitaz',
  instanceTypes: ['m5.large', 'm5.xlarge'],
  discountStrategy: 'spot',
  minSize: 3,
  maxSize: 9,
  configItems: { taints: 'dedicated=db:NoSchedule,bad=:Nope', labels: 'dedicated=db' },
};

const master: NodePool = {
  name: 'master-default',
  profile: 'master-default',
  instanceTypes: ['m5.large'],
  discountStrategy: 'none',
  minSize: 1,
  maxSize: 2,
  configItems: {},
};

const karpenter: NodePool = {
  ...master,
  name: 'karpenter',
  profile: 'worker-karpenter',
  instanceTypes: [],
  minSize: 0,
  maxSize: 0,
};

const cluster: Cluster = {
  id: 'aws:123456789012:eu-central-1:kube-1',
  alias: 'kube-1-alias',
  localId: 'kube-1',
  apiServerUrl: 'https://kube-1.example.org',
  channel: 'stable',
  configItems: { coredns_replicas: '2' },
  criticalityLevel: 2,
  environment: 'production',
  infrastructureAccount: 'aws:123456789012',
  lifecycleStatus: 'ready',
  nodePools: [master, worker, karpenter],
  provider: 'zalando-aws',
  region: 'eu-central-1',
  status: { currentVersion: 'a#b', lastVersion: 'c#d', nextVersion: 'e#f', problems: [{ type: 't', title: 'x' }] },
  owner: 'team-k8s',
  accountName: 'kube-prod',
};

describe('templateContext', () => {
  it("gives the cluster with CLM's names", () => {
    // Act
    const { Cluster } = templateContext(cluster);
    // Assert
    expect(Cluster).toMatchObject({
      ID: 'aws:123456789012:eu-central-1:kube-1',
      Alias: 'kube-1-alias',
      LocalID: 'kube-1',
      APIServerURL: 'https://kube-1.example.org',
      Channel: 'stable',
      Environment: 'production',
      CriticalityLevel: 2,
      InfrastructureAccount: 'aws:123456789012',
      Region: 'eu-central-1',
      Provider: 'zalando-aws',
      LifecycleStatus: 'ready',
      ConfigItems: { coredns_replicas: '2' },
      Owner: 'team-k8s',
      AccountName: 'kube-prod',
      Status: { CurrentVersion: 'a#b', LastVersion: 'c#d', NextVersion: 'e#f' },
      Name: 'aws:123456789012:eu-central-1:kube-1',
      InfrastructureAccountID: '123456789012',
      WorkerRoleARN: 'arn:aws:iam::123456789012:role/kube-1-worker',
    });
    expect(Cluster.NodePools.map((p) => p.Name)).toEqual(['master-default', 'default-worker', 'karpenter']);
    expect(Cluster.KarpenterPools.map((p) => p.Name)).toEqual(['karpenter']);
    expect(Cluster.ASGBackedPools.map((p) => p.Name)).toEqual(['master-default', 'default-worker']);
  });

  it('names an EKS cluster by its alias', () => {
    expect(templateContext({ ...cluster, provider: 'zalando-eks' }).Cluster.Name).toBe('kube-1-alias');
  });

  it('gives empty Owner and AccountName when the registry has none', () => {
    const { owner: _o, accountName: _a, ...bare } = cluster;
    expect(templateContext(bare).Cluster).toMatchObject({ Owner: '', AccountName: '' });
  });

  it('gives the node pool with its classification and parsed taints', () => {
    // Act
    const { NodePool } = templateContext(cluster, { x: 1 }, worker);
    // Assert
    expect(NodePool).toEqual({
      Name: 'default-worker',
      Profile: 'worker-splitaz',
      InstanceTypes: ['m5.large', 'm5.xlarge'],
      InstanceType: 'm5.large',
      DiscountStrategy: 'spot',
      MinSize: 3,
      MaxSize: 9,
      ConfigItems: { taints: 'dedicated=db:NoSchedule,bad=:Nope', labels: 'dedicated=db' },
      IsMaster: false,
      IsSpot: true,
      IsKarpenter: false,
      Taints: [{ Key: 'dedicated', Value: 'db', Effect: 'NoSchedule' }],
      KarpenterInstanceTypeStrategy: 'custom',
      KarpenterRequirements: [],
    });
  });

  it('classifies master and Karpenter pools', () => {
    expect(templateContext(cluster, {}, master).NodePool).toMatchObject({
      IsMaster: true,
      IsSpot: false,
      IsKarpenter: false,
      Taints: null,
    });
    expect(templateContext(cluster, {}, karpenter).NodePool).toMatchObject({
      IsMaster: false,
      IsKarpenter: true,
      InstanceType: '',
    });
  });

  it('has Values ({} when none) and NodePool null outside node-pool templates', () => {
    expect(templateContext(cluster)).toMatchObject({ Values: {}, NodePool: null });
    expect(templateContext(cluster, { hosted_zone: 'example.org' }).Values).toEqual({ hosted_zone: 'example.org' });
  });
});
