import {
  mainStackName,
  mainStackTags,
  nodePoolStackName,
  nodePoolStackTags,
} from '../../lambdas/core/cloudformation/stack-names';
import { withControlPlane } from '../../lambdas/core/eks/eks-control-plane';
import type { Cluster } from '../../lambdas/core/model/cluster';
import { SimulatedWorld } from '../../lambdas/sim';
import { KubeApiError, TransientApiError } from '../../lambdas/shared/errors';
import { poolTemplate, subnetsOf, testCluster } from './fixtures';

const eksCluster = (): Cluster =>
  testCluster({
    provider: 'zalando-eks',
    alias: 'teapot-euc1',
    apiServerUrl: 'https://teapot-euc1.example.org',
    nodePools: [testCluster().nodePools[1]!],
  });

function mainTemplate(subnets: readonly string[], extra = ''): string {
  return `
Resources:
  ControlPlaneRole:
    Type: AWS::IAM::Role
    Properties:
      RoleName: teapot-euc1-control-plane
  EKSCluster:
    Type: AWS::EKS::Cluster
    Properties:
      Name: teapot-euc1
      RoleArn: !GetAtt ControlPlaneRole.Arn
      ResourcesVpcConfig:
        SubnetIds: [${subnets.join(', ')}]
${extra}Outputs:
  Endpoint:
    Value: !GetAtt EKSCluster.Endpoint
`;
}

async function world(template: (subnets: readonly string[]) => string = mainTemplate) {
  const cluster = eksCluster();
  const sim = SimulatedWorld.create({ timings: { stackCreateSeconds: 60, stackDeleteSeconds: 60 } });
  const ports = sim.forCluster(cluster);
  const subnets = await subnetsOf(ports, cluster);
  await ports.stacks.deploy({
    name: mainStackName(cluster),
    templateBody: template(subnets),
    tags: mainStackTags(cluster),
  });
  return { cluster, sim, ports, subnets };
}

describe('simulated EKS', () => {
  it('finds no cluster before the stack that creates it completes, then describes it', async () => {
    const { sim, ports } = await world();
    const before = await ports.eks.describe('teapot-euc1');
    sim.runUntilIdle();
    const plane = await ports.eks.describe('teapot-euc1');

    expect(before).toBeUndefined();
    expect(plane).toMatchObject({ name: 'teapot-euc1', status: 'ACTIVE', serviceCidr: '172.20.0.0/16' });
    expect(plane!.endpoint).toMatch(/^https:\/\/[0-9A-F]{32}\.gr7\.eu-central-1\.eks\.amazonaws\.com$/);
    expect(plane!.oidcIssuerUrl).toMatch(/^https:\/\/oidc\.eks\.eu-central-1\.amazonaws\.com\/id\/[0-9A-F]{32}$/);
    expect(Buffer.from(plane!.certificateAuthorityData, 'base64').toString()).toContain('-----BEGIN CERTIFICATE-----');
    expect(await ports.eks.describe('other')).toBeUndefined();
  });

  it('reports the IPv6 service CIDR for the ipv6 family', async () => {
    const { sim, ports } = await world((subnets) =>
      mainTemplate(subnets).replace(
        '      ResourcesVpcConfig:',
        '      KubernetesNetworkConfig:\n        IpFamily: ipv6\n      ResourcesVpcConfig:',
      ),
    );
    sim.runUntilIdle();

    expect((await ports.eks.describe('teapot-euc1'))!.serviceCidr).toMatch(
      /^fd[0-9a-f]{2}:[0-9a-f]{4}:[0-9a-f]{4}::\/108$/,
    );
  });

  it.each([
    ['no role', (s: readonly string[]) => mainTemplate(s).replace(/      RoleArn: .*\n/, ''), 'RoleArn'],
    ['subnets in one AZ', (s: readonly string[]) => mainTemplate([s[0]!]), 'at least two different AZs'],
    ['an unknown subnet', () => mainTemplate(['subnet-0000', 'subnet-0001']), "subnet ID 'subnet-0000' does not exist"],
    [
      'a service CIDR overlapping the VPC',
      (s: readonly string[]) =>
        mainTemplate(s).replace(
          '      ResourcesVpcConfig:',
          '      KubernetesNetworkConfig:\n        ServiceIpv4Cidr: 10.0.0.0/16\n      ResourcesVpcConfig:',
        ),
      'does not overlap the VPC',
    ],
  ])('refuses a cluster with %s: the stack rolls back and no cluster exists', async (_what, template, reason) => {
    const { sim, ports } = await world(template);
    sim.runUntilIdle();
    const stack = await ports.stacks.describe('kube-1');
    const failed = (await ports.stacks.events('kube-1')).find((e) => e.resourceStatus === 'CREATE_FAILED');

    expect(stack?.status).toBe('ROLLBACK_COMPLETE');
    expect(failed?.logicalResourceId).toBe('EKSCluster');
    expect(failed?.resourceStatusReason).toContain(reason);
    expect(await ports.eks.describe('teapot-euc1')).toBeUndefined();
  });

  it('serves the API only at the EKS endpoint to clients that trust the EKS CA', async () => {
    const { cluster, sim, ports } = await world();
    sim.runUntilIdle();
    const plane = (await ports.eks.describe('teapot-euc1'))!;
    const connected = withControlPlane(cluster, plane);
    const wrongCa = {
      ...connected,
      configItems: {
        ...connected.configItems,
        eks_certificate_authority_data: Buffer.from(
          '-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----',
        ).toString('base64'),
      },
    };

    expect(await ports.kube.ready()).toBe(false);
    await expect(ports.kube.listNodes()).rejects.toBeInstanceOf(TransientApiError);
    expect(await sim.forCluster(connected).kube.ready()).toBe(true);
    await expect(sim.forCluster(wrongCa).kube.listNodes()).rejects.toThrow(
      /x509: certificate signed by unknown authority/,
    );
    await expect(sim.forCluster(wrongCa).kube.listNodes()).rejects.toBeInstanceOf(KubeApiError);
  });

  it('joins nodes to the control plane, attaches a CNI interface to each, and leaks it when the node goes', async () => {
    const { cluster, sim, ports, subnets } = await world();
    sim.runUntilIdle();
    const connected = sim.forCluster(withControlPlane(cluster, (await ports.eks.describe('teapot-euc1'))!));
    const pool = cluster.nodePools[0]!;
    await ports.stacks.deploy({
      name: nodePoolStackName(cluster, pool.name),
      templateBody: poolTemplate({ subnets, desired: 2, min: 1 }),
      tags: nodePoolStackTags(cluster, pool),
    });
    sim.runUntilIdle();
    const nodes = await connected.kube.listNodes();
    const attached = sim.cloudResources(cluster.id).filter((r) => r.kind === 'network-interface');
    await ports.stacks.delete(nodePoolStackName(cluster, pool.name), { disableTerminationProtection: true });
    sim.runUntilIdle();
    const leaked = await ports.leftovers.find('teapot-euc1');

    expect(nodes).toHaveLength(2);
    expect(attached.map((r) => [r.state, r.tags['cluster.k8s.amazonaws.com/name']])).toEqual([
      ['in-use', 'teapot-euc1'],
      ['in-use', 'teapot-euc1'],
    ]);
    expect(await connected.kube.listNodes()).toEqual([]);
    expect(leaked.found.map((l) => [l.kind, l.state])).toEqual([
      ['network-interface', 'available'],
      ['network-interface', 'available'],
    ]);
  });

  it('keeps nodes out while there is no control plane', async () => {
    const cluster = eksCluster();
    const sim = SimulatedWorld.create();
    const ports = sim.forCluster(cluster);
    const subnets = await subnetsOf(ports, cluster);
    const pool = cluster.nodePools[0]!;
    await ports.stacks.deploy({
      name: nodePoolStackName(cluster, pool.name),
      templateBody: poolTemplate({ subnets, desired: 2, min: 1 }),
      tags: nodePoolStackTags(cluster, pool),
    });
    sim.runUntilIdle();

    expect(sim.describe(cluster.id).nodes).toEqual([]);
    expect(sim.cloudResources(cluster.id)).toEqual([]);
  });

  it('describes the cluster as DELETING while its stack is deleted, and finds none afterwards', async () => {
    const { sim, ports } = await world();
    sim.runUntilIdle();
    await ports.stacks.delete('kube-1', { disableTerminationProtection: true });
    const deleting = await ports.eks.describe('teapot-euc1');
    sim.runUntilIdle();

    expect(deleting?.status).toBe('DELETING');
    expect(await ports.eks.describe('teapot-euc1')).toBeUndefined();
  });
});
