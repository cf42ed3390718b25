import {
  mainStackName,
  mainStackTags,
  nodePoolStackName,
  nodePoolStackTags,
} from '../../lambdas/core/cloudformation/stack-names';
import type { Cluster, NodePool } from '../../lambdas/core/model/cluster';
import type { ClusterPorts } from '../../lambdas/ports/ports';
import type { ClusterRef } from '../../lambdas/ports/node-pool-backend';
import { SimulatedWorld } from '../../lambdas/sim';
import type { ScenarioInput } from '../../lambdas/sim';
import { testCluster as baseCluster, testPool } from '../support/test-cluster';

/** Shared test data: a cluster, its templates, and a helper that brings it up in a world. */

export const ACCOUNT = '123456789012';
export const REGION = 'eu-central-1';

function pool(name: string, profile: string, min = 1, max = 10): NodePool {
  return testPool({ name, profile, instanceTypes: ['m5.large'], minSize: min, maxSize: max });
}

/** The cluster the simulator tests bring up: a master pool and a split-AZ worker pool, channel stable. */
export function testCluster(overrides: Partial<Cluster> = {}): Cluster {
  return baseCluster({
    id: `aws:${ACCOUNT}:${REGION}:kube-1`,
    channel: 'stable',
    infrastructureAccount: `aws:${ACCOUNT}`,
    nodePools: [pool('master-default', 'master-default', 1, 3), pool('default-worker', 'worker-splitaz', 1, 20)],
    region: REGION,
    ...overrides,
  });
}

export function clusterRef(cluster: Cluster): ClusterRef {
  return {
    id: cluster.id,
    name: cluster.id,
    region: cluster.region,
    infrastructureAccount: cluster.infrastructureAccount,
  };
}

export const MAIN_TEMPLATE = `
AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  Env:
    Type: String
    Default: test
Conditions:
  IsProd: !Equals [!Ref Env, production]
Resources:
  WorkerRole:
    Type: AWS::IAM::Role
    Properties:
      RoleName: !Sub "\${AWS::StackName}-worker"
  MasterKey:
    Type: AWS::KMS::Key
  ProdOnly:
    Type: AWS::SNS::Topic
    Condition: IsProd
  NodeSecurityGroup:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: nodes
Outputs:
  WorkerRoleArn:
    Value: !GetAtt WorkerRole.Arn
  MasterFilesEncryptionKey:
    Value: !GetAtt MasterKey.Arn
  WorkerFilesEncryptionKey:
    Value: !GetAtt MasterKey.Arn
  SecurityGroup:
    Value: !Ref NodeSecurityGroup
    Export:
      Name: !Sub "\${AWS::StackName}-sg"
`;

export interface PoolTemplateOptions {
  readonly subnets: readonly string[];
  readonly userData?: string;
  readonly instanceType?: string;
  readonly desired?: number;
  readonly min?: number;
  readonly max?: number;
}

export function poolTemplate(options: PoolTemplateOptions): string {
  const desired = options.desired === undefined ? '' : `      DesiredCapacity: "${options.desired}"\n`;
  return `
AWSTemplateFormatVersion: "2010-09-09"
Resources:
  LaunchTemplate:
    Type: AWS::EC2::LaunchTemplate
    Properties:
      LaunchTemplateData:
        InstanceType: ${options.instanceType ?? 'm5.large'}
        ImageId: ami-0123456789abcdef0
        UserData: !Base64 "${options.userData ?? 'v1'}"
  AutoScalingGroup:
    Type: AWS::AutoScaling::AutoScalingGroup
    Properties:
      MinSize: "${options.min ?? 1}"
      MaxSize: "${options.max ?? 20}"
${desired}      LaunchTemplate:
        LaunchTemplateId: !Ref LaunchTemplate
        Version: !GetAtt LaunchTemplate.LatestVersionNumber
      VPCZoneIdentifier: [${options.subnets.join(', ')}]
Outputs:
  AsgName:
    Value: !Ref AutoScalingGroup
`;
}

export interface Running {
  readonly world: SimulatedWorld;
  readonly cluster: Cluster;
  readonly ports: ClusterPorts;
  readonly subnets: string[];
  /** Deploy (or update) a pool stack. */
  deployPool(poolName: string, options?: Partial<PoolTemplateOptions>): Promise<'STARTED' | 'NO_CHANGES'>;
}

export async function subnetsOf(ports: ClusterPorts, cluster: Cluster): Promise<string[]> {
  const values = await ports.values.clusterValues(cluster);
  return String((values.subnets as Record<string, string>)['*']).split(',');
}

/**
 * A world with the cluster's main stack, one master and `workers` worker nodes up and Ready (all stacks
 * complete, every event processed).
 */
export async function runningCluster(
  scenario: ScenarioInput = {},
  workers = 3,
  cluster = testCluster(),
): Promise<Running> {
  const world = SimulatedWorld.create(scenario);
  const ports = world.forCluster(cluster);
  const subnets = await subnetsOf(ports, cluster);
  const deployPool = async (
    poolName: string,
    options: Partial<PoolTemplateOptions> = {},
  ): Promise<'STARTED' | 'NO_CHANGES'> => {
    const spec = cluster.nodePools.find((p) => p.name === poolName)!;
    const master = poolName.startsWith('master');
    const body = poolTemplate({
      subnets,
      desired: master ? 1 : workers,
      min: master ? 1 : Math.min(1, workers),
      ...options,
    });
    const { result } = await ports.stacks.deploy({
      name: nodePoolStackName(cluster, poolName),
      templateBody: body,
      tags: nodePoolStackTags(cluster, spec),
    });
    return result;
  };
  await ports.stacks.deploy({
    name: mainStackName(cluster),
    templateBody: MAIN_TEMPLATE,
    tags: mainStackTags(cluster),
  });
  world.runUntilIdle();
  for (const p of cluster.nodePools) await deployPool(p.name);
  world.runUntilIdle();
  return { world, cluster, ports, subnets, deployPool };
}
